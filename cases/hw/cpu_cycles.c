#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_CPU_CYCLES counts CPU cycles: a 10M-iteration loop takes > 0",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_CPU_CYCLES \"Total cycles\"; "
	       "ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.CPU_CYCLES type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd = pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	uint64_t n = pa_count_over(fd, pa_work_loop, 10);	/* 10M iterations */

	pa_diag("%llu over 10M loop iterations", (unsigned long long)n);
	EXPECT_GT(n, 0);
}
