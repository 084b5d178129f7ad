#include "perfabi.h"

/*
 * x86-64 defines XMM0..XMM15 as sample register bits 32..63 (two bits per
 * 128-bit register). perf_reg_validate() accepts them; only a PMU that can
 * capture them (PERF_PMU_CAP_EXTENDED_REGS, PEBS on recent Intel cores)
 * takes them. The software PMU cannot, so the open fails with EOPNOTSUPP
 * after the PMU initialised the event (and tears it down again).
 */
#define XMM_BIT(n)	(1ULL << (32 + 2 * (n)))

PERFABI_CASE(
	.assertion = "on x86-64, sample_regs_user naming an XMM register (bits 32..63) on a software event fails with EOPNOTSUPP, as it does on every PMU without extended-register support; the same event without the XMM bit opens",
	.ref = "arch/x86/include/uapi/asm/perf_regs.h PERF_REG_X86_XMM0 = 32, PERF_REG_EXTENDED_MASK (5.1, \"perf/x86: Support outputting XMM registers\"); kernel/events/core.c perf_try_init_event(): !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS) && has_extended_regs(event) -> -EOPNOTSUPP (after event_init, event->destroy() called)",
	.covers = "attr.sample_regs_user sample.REGS_USER errno.EOPNOTSUPP",
	.min_kernel = "5.1",
	.probe = pa_probe_self_perf,
) {
#if defined(__x86_64__)
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	int fd;

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER;
	attr.sample_regs_user = pa_regs_valid_mask() | XMM_BIT(0);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EOPNOTSUPP);
	attr.sample_regs_user = pa_regs_valid_mask() | XMM_BIT(15) | (XMM_BIT(15) << 1);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EOPNOTSUPP);
	/* the same event without the XMM bits is fine */
	attr.sample_regs_user = pa_regs_valid_mask();
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
#else
	pa_skip("XMM sample registers are x86-64 only");
#endif
}
