#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_TASK_CLOCK counts the clock time of the running task in nanoseconds: "
		     "over 100 ms of busy CPU time it advances by at least 50 ms",
	.ref = "perf_event_open(2), PERF_TYPE_SOFTWARE: PERF_COUNT_SW_TASK_CLOCK",
	.covers = "sw.TASK_CLOCK type.SOFTWARE attr.type attr.config",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	uint64_t n = pa_count_over(fd, pa_work_cpu_ms, 100);

	pa_diag("%llu ns", (unsigned long long)n);
	EXPECT_GE(n, 50000000u);
}
