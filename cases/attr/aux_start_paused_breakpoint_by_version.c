#include "perfabi.h"

/*
 * aux_start_paused asks an AUX-area PMU to create its event paused. Any
 * PMU without PERF_PMU_CAP_AUX_PAUSE refuses it, not only the software
 * PMU: a user-space write breakpoint (breakpoint PMU) gets EOPNOTSUPP from
 * perf_event_alloc() where aux_action exists (6.13, 6.12.24). Before, bit 0
 * of the u32 at offset 116 was __reserved_3: EINVAL from perf_copy_attr().
 */
static volatile int watched;

PERFABI_CASE(
	.assertion = "attr.aux_start_paused on a breakpoint event (a PMU without AUX pause support) fails with EOPNOTSUPP where aux_action exists and with EINVAL (a __reserved_3 bit) before",
	.ref = "kernel/events/core.c perf_event_alloc(): \"if (event->attr.aux_start_paused) { if (!(pmu->capabilities & PERF_PMU_CAP_AUX_PAUSE)) -EOPNOTSUPP\" (6.13, 18d92bb57c39; stable 6.12.24); perf_copy_attr() __reserved_3",
	.covers = "attr.aux_start_paused errno.EOPNOTSUPP errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&watched, sizeof(watched));
	bool known = pa_since_aux_action();

	attr.aux_start_paused = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, known ? EOPNOTSUPP : EINVAL);
	/* the same breakpoint without the bit opens: only the bit is wrong */
	attr.aux_start_paused = 0;
	close(EXPECT_OPEN(&attr, 0, -1, -1, 0));
}
