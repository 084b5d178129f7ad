#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND opens and counts front-end stall cycles: the read succeeds with a sane value",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_STALLED_CYCLES_FRONTEND \"Stalled cycles during issue\" (since Linux 3.0); "
	       "ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.STALLED_CYCLES_FRONTEND type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd = pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND);
	uint64_t n = pa_count_over(fd, pa_work_loop, 10);	/* 10M iterations */

	pa_diag("%llu over 10M loop iterations", (unsigned long long)n);
	/* a miss/stall counter: any value is possible, but not more events
	 * than the loop could have had cycles for (a few billion) */
	EXPECT_LT(n, 100000000000ULL);
}
