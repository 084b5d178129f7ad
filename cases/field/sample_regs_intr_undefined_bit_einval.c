#include "perfabi.h"

/*
 * sample_regs_intr with one bit the architecture's asm/perf_regs.h does not define
 * (next to valid SP/IP bits) is refused by perf_reg_validate().
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_REGS_INTR with a sample_regs_intr bit the architecture does not define fails with EINVAL",
	.ref = "perf_event_open(2), sample_regs_intr: layout in arch/ARCH/include/uapi/asm/perf_regs.h; kernel/events/core.c perf_copy_attr() -> perf_reg_validate() (arch/x86/kernel/perf_regs.c PERF_REG_X86_RESERVED)",
	.covers = "attr.sample_regs_intr sample.REGS_INTR errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);

	if (!pa_regs_undefined_bit())
		pa_skip("no perf_regs.h layout known for this architecture");
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR;
	attr.sample_regs_intr = pa_regs_valid_mask() | pa_regs_undefined_bit();
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
