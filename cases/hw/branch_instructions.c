#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_BRANCH_INSTRUCTIONS counts retired branch instructions: a loop of 10M iterations, each ending in a branch, retires at least 10M",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_BRANCH_INSTRUCTIONS \"Retired branch instructions\"; "
	       "ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.BRANCH_INSTRUCTIONS type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd = pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	uint64_t n = pa_count_over(fd, pa_work_loop, 10);	/* 10M iterations */

	pa_diag("%llu over 10M loop iterations", (unsigned long long)n);
	EXPECT_GE(n, 10000000u);
}
