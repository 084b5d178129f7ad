#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_BRANCH_MISSES opens and counts mispredicted branches: the read succeeds with a sane value",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_BRANCH_MISSES \"Mispredicted branch instructions\"; "
	       "ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.BRANCH_MISSES type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd = pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES);
	uint64_t n = pa_count_over(fd, pa_work_loop, 10);	/* 10M iterations */

	pa_diag("%llu over 10M loop iterations", (unsigned long long)n);
	/* a miss/stall counter: any value is possible, but not more events
	 * than the loop could have had cycles for (a few billion) */
	EXPECT_LT(n, 100000000000ULL);
}
