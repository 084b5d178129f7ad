#include "perfabi.h"

static volatile uint64_t target[2];

PERFABI_CASE(
	.assertion = "a data breakpoint whose bp_addr is not aligned to bp_len is rejected with EINVAL",
	.ref = "arch/x86/kernel/hw_breakpoint.c hw_breakpoint_arch_parse(): bp_addr & (len - 1) -> -EINVAL (the man page does not say)",
	.covers = "attr.bp_addr errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const char *)target + 4, HW_BREAKPOINT_LEN_8);

#if !defined(__x86_64__) && !defined(__i386__)
	pa_skip("alignment rules checked here are x86's");
#endif
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.bp_len = HW_BREAKPOINT_LEN_4;	/* 4-aligned with length 4: fine */
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
}
