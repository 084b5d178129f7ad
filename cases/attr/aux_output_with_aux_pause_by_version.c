#include "perfabi.h"

/*
 * aux_output combined with aux_pause: where aux_action exists,
 * perf_event_alloc() refuses aux_output on a PMU without
 * PERF_PMU_CAP_AUX_OUTPUT, or together with aux_pause/aux_resume, with
 * EOPNOTSUPP (this software event fails both ways). Before aux_action,
 * aux_pause was a __reserved_3 bit and perf_copy_attr() answered EINVAL
 * first.
 */
PERFABI_CASE(
	.assertion = "attr.aux_output with attr.aux_pause on a software event fails with EOPNOTSUPP where aux_action exists (6.13, 6.12.24) and with EINVAL (reserved bit) before",
	.ref = "kernel/events/core.c perf_event_alloc(): \"if (event->attr.aux_output && (!(pmu->capabilities & PERF_PMU_CAP_AUX_OUTPUT) || event->attr.aux_pause || event->attr.aux_resume)) -EOPNOTSUPP\"; perf_copy_attr() __reserved_3 -> -EINVAL",
	.covers = "attr.aux_output attr.aux_pause errno.EOPNOTSUPP errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	bool known = pa_since_aux_action();

	attr.aux_output = 1;
	attr.aux_pause = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, known ? EOPNOTSUPP : EINVAL);
}
