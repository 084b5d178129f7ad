#include "perfabi.h"

__attribute__((noinline, used)) static void pa_bp_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

PERFABI_CASE(
	.assertion = "an execute breakpoint must use bp_len sizeof(long): another length is rejected with EINVAL",
	.ref = "perf_event_open(2), bp_len \"For execution breakpoints, set this to sizeof(long)\"; arch/x86/kernel/hw_breakpoint.c arch_build_bp_info()",
	.covers = "attr.bp_len attr.bp_type errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_X, (const void *)pa_bp_fn, HW_BREAKPOINT_LEN_1);

#if !defined(__x86_64__) && !defined(__i386__)
	pa_skip("the length rule checked here is x86's");
#endif
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.bp_len = sizeof(long);
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
}
