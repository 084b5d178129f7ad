#include "perfabi.h"

static volatile uint64_t target;

PERFABI_CASE(
	.assertion = "a bp_type that is not a supported combination (HW_BREAKPOINT_INVALID = RW|X, or an unknown bit 8) is rejected with EINVAL",
	.ref = "perf_event_open(2), bp_type; arch/x86/kernel/hw_breakpoint.c arch_build_bp_info(): default -> -EINVAL",
	.covers = "attr.bp_type errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_INVALID, (const void *)&target, HW_BREAKPOINT_LEN_8);

	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.bp_type = 8;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
}
