#include "perfabi.h"

PERFABI_CASE(
	.assertion = "pid == 0 and cpu >= 0 measures the calling thread while it "
		     "runs on that CPU: faults made there are counted, one per fresh page",
	.ref = "perf_event_open(2), Arguments: \"pid == 0 and cpu >= 0\"",
	.alone = true,
	.covers = "arg.pid arg.cpu",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	int cpus[1], fd;

	ASSERT_EQ(pa_allowed_cpus(cpus, 1), 1);
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	fd = ASSERT_OPEN(&attr, 0, cpus[0], -1, PERF_FLAG_FD_CLOEXEC);
	/* once to fault in the code it runs: then only the fresh pages fault */
	pa_count_over(fd, pa_work_pages, 64);
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
}
