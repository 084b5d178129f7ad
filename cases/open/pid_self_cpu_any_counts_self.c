#include "perfabi.h"

PERFABI_CASE(
	.assertion = "pid == 0 and cpu == -1 measures the calling thread on any CPU: "
		     "its page faults are counted, one per fresh page",
	.ref = "perf_event_open(2), Arguments: \"pid == 0 and cpu == -1\"",
	.covers = "arg.pid arg.cpu",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	/* once to fault in the code it runs: then only the fresh pages fault */
	pa_count_over(fd, pa_work_pages, 64);
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
}
