#include "perfabi.h"

/*
 * The u32 at offset 116 was all __reserved_3 until aux_action (6.13; in
 * 6.12.y since 6.12.24): bit 0 aux_start_paused, bit 1 aux_pause, bit 2
 * aux_resume. aux_start_paused on a PMU without PERF_PMU_CAP_AUX_PAUSE
 * (software) is:
 *   with aux_action: EOPNOTSUPP (perf_event_alloc);
 *   before: a reserved bit -> EINVAL (perf_copy_attr).
 */
PERFABI_CASE(
	.assertion = "aux_start_paused (aux_action bit 0) on a software event fails with EOPNOTSUPP where aux_action exists, and with EINVAL (a __reserved_3 bit) before",
	.ref = "include/uapi/linux/perf_event.h aux_action (\"perf/core: Add aux_pause, aux_resume, aux_start_paused\", 6.13, stable 6.12.24); kernel/events/core.c perf_event_alloc(): aux_start_paused without PERF_PMU_CAP_AUX_PAUSE -> -EOPNOTSUPP",
	.covers = "attr.aux_action attr.aux_start_paused attr.__reserved_3 errno.EOPNOTSUPP errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	bool known = pa_since_aux_action();

	attr.aux_start_paused = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, known ? EOPNOTSUPP : EINVAL);
}
