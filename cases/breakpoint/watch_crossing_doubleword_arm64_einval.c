#include "perfabi.h"

/*
 * arm64: WVR holds a doubleword address and WCR.BAS an 8-bit byte mask of
 * it, so one watchpoint cannot reach past its doubleword.
 * hw_breakpoint_arch_parse() shifts the length mask by bp_addr's offset
 * in the doubleword and refuses a mask that no longer fits in 8 bits
 * (EINVAL) instead of watching fewer bytes than asked: bp_len 4 at
 * doubleword + 6 and bp_len 2 at doubleword + 7 are refused; bp_len 4 at
 * + 4 and bp_len 2 at + 6 (the same bytes, inside) open.
 *
 * The check is a later fix, present in the 6.12.117 and 6.1.192 sources
 * this was run on; before it the shift dropped the mask's high bits (the
 * watchpoint silently watched only the bytes up to the doubleword's end)
 * and the open succeeded, so this case fails on such a kernel. Its commit
 * is not named here yet (.fix / .min_kernel to add once known).
 */
static volatile uint8_t buf[16] __attribute__((aligned(8)));

PERFABI_CASE(
	.assertion = "arm64: a watchpoint whose bp_len bytes at bp_addr cross the end of their 8-byte doubleword (bp_len 4 at +6, bp_len 2 at +7) is refused with EINVAL; the same lengths ending inside it open",
	.ref = "arch/arm64/kernel/hw_breakpoint.c hw_breakpoint_arch_parse(): \"BAS is an 8-bit field in WCR/BCR\", ((u32)hw->ctrl.len << offset) > ARM_BREAKPOINT_LEN_8 -> -EINVAL",
	.covers = "attr.bp_addr attr.bp_len errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
#if defined(__aarch64__)
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[6], HW_BREAKPOINT_LEN_4);

	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[7], HW_BREAKPOINT_LEN_2);
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
	a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[4], HW_BREAKPOINT_LEN_4);
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
	a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&buf[6], HW_BREAKPOINT_LEN_2);
	close(ASSERT_OPEN(&a, 0, -1, -1, 0));
#else
	pa_skip("the doubleword rule checked here is arm64's (x86: breakpoint/bp_addr_alignment_rule_x86)");
#endif
}
