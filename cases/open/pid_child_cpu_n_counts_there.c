#include "perfabi.h"

PERFABI_CASE(
	.assertion = "pid > 0 and cpu >= 0 measures that process while it runs on "
		     "that CPU: the child's faults made there are counted, one per fresh page",
	.ref = "perf_event_open(2), Arguments: \"pid > 0 and cpu >= 0\"",
	.alone = true,
	.covers = "arg.pid arg.cpu",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	struct pa_puppet child;
	int cpus[1], fd;
	uint64_t n;

	ASSERT_EQ(pa_allowed_cpus(cpus, 1), 1);
	ASSERT_OK(pa_pin_cpu(cpus[0]));	/* the child inherits the mask */
	pa_puppet_start(&child);
	/* its copy-on-write and code faults first: then only fresh pages fault */
	pa_puppet_run(&child, pa_work_pages, 64);
	fd = ASSERT_OPEN(&attr, child.pid, cpus[0], -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_puppet_run(&child, pa_work_pages, 64);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	EXPECT_EQ(n, 64);
	pa_puppet_stop(&child);
}
