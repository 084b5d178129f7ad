#include "perfabi.h"

PERFABI_CASE(
	.assertion = "pid > 0 and cpu >= 0 counts only while that process runs on "
		     "that CPU: a child kept on another CPU counts nothing",
	.ref = "perf_event_open(2), Arguments: \"pid > 0 and cpu >= 0 ... only "
	       "when running on the specified CPU\"",
	.alone = true,
	.covers = "arg.pid arg.cpu",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	struct pa_puppet child;
	int cpus[2], fd;
	uint64_t n;

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");
	ASSERT_OK(pa_pin_cpu(cpus[1]));	/* the child inherits the mask */
	pa_puppet_start(&child);
	fd = ASSERT_OPEN(&attr, child.pid, cpus[0], -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_puppet_run(&child, pa_work_pages, 64);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	EXPECT_EQ(n, 0);
	pa_puppet_stop(&child);
}
