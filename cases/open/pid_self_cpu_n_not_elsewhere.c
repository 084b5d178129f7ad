#include "perfabi.h"

PERFABI_CASE(
	.assertion = "pid == 0 and cpu >= 0 counts only while the thread runs on "
		     "that CPU: a thread kept on another CPU counts nothing",
	.ref = "perf_event_open(2), Arguments: \"pid == 0 and cpu >= 0 ... only "
	       "when running on the specified CPU\"",
	.alone = true,
	.covers = "arg.pid arg.cpu",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	int cpus[2], fd;

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");
	ASSERT_OK(pa_pin_cpu(cpus[1]));
	fd = ASSERT_OPEN(&attr, 0, cpus[0], -1, PERF_FLAG_FD_CLOEXEC);
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 0);
}
