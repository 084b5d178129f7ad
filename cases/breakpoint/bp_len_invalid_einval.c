#include "perfabi.h"

static volatile uint64_t target __attribute__((aligned(8)));

PERFABI_CASE(
	.assertion = "a data breakpoint length the architecture does not support is rejected with EINVAL: 0 everywhere, 3, 5, 6 and 7 on x86, which takes only 1, 2, 4 and 8 (arm64 accepts byte-select lengths)",
	.ref = "perf_event_open(2), bp_len; arch/x86/kernel/hw_breakpoint.c arch_build_bp_info(): only 1, 2, 4, 8 (else a power of two for AMD range breakpoints); arch/arm64/kernel/hw_breakpoint.c accepts 1..8",
	.covers = "attr.bp_len errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_3);

#if defined(__x86_64__) || defined(__i386__)
	/* x86: 1, 2, 4, 8 only; other lengths go to the AMD range-breakpoint
	 * path, which refuses a length that is not a power of two */
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.bp_len = HW_BREAKPOINT_LEN_5;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.bp_len = HW_BREAKPOINT_LEN_6;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.bp_len = HW_BREAKPOINT_LEN_7;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
#endif
	a.bp_len = 0;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a.bp_len = HW_BREAKPOINT_LEN_4;	/* a valid length opens */
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
}
