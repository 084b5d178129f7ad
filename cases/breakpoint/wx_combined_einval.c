#include "perfabi.h"

static volatile uint64_t target;

PERFABI_CASE(
	.assertion = "bp_type may OR R and W, but not R or W with X: HW_BREAKPOINT_W | HW_BREAKPOINT_X and HW_BREAKPOINT_R | HW_BREAKPOINT_X are rejected with EINVAL",
	.ref = "perf_event_open(2), bp_type: \"the values can be combined via a bitwise or, but the combination of HW_BREAKPOINT_R or HW_BREAKPOINT_W with HW_BREAKPOINT_X is not allowed\"; arch/x86/kernel/hw_breakpoint.c and arch/arm64/kernel/hw_breakpoint.c arch_build_bp_info(): default -> -EINVAL",
	.covers = "type.BREAKPOINT attr.bp_type errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	/* bp_len sizeof(long) and an aligned address: valid for W and for X */
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W | HW_BREAKPOINT_X, (const void *)&target, sizeof(long));

	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.bp_type = HW_BREAKPOINT_R | HW_BREAKPOINT_X;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	/* W alone on the same address and length opens */
	a.bp_type = HW_BREAKPOINT_W;
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
}
