#include "perfabi.h"

/*
 * Without freq, sample_period is a u64 but the kernel refuses bit 63 (it
 * would be a negative s64 period internally).
 */
PERFABI_CASE(
	.assertion = "without freq, a sample_period with bit 63 set fails with EINVAL",
	.ref = "kernel/events/core.c perf_event_open(): \"if (attr.sample_period & (1ULL << 63)) return -EINVAL\"; perf_event_open(2), EINVAL",
	.covers = "attr.sample_period errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1ULL << 63);

	attr.disabled = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
