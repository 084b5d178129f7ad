#include "perfabi.h"

/*
 * aux_sample_size asks for AUX data in samples: the event must be in a group
 * led by an AUX event whose PMU can snapshot. A lone software event has no
 * such leader -> EINVAL (since 5.5).
 */
PERFABI_CASE(
	.assertion = "a non-zero aux_sample_size on an event without an AUX group leader fails with EINVAL",
	.ref = "include/uapi/linux/perf_event.h aux_sample_size (5.5, VER6); kernel/events/core.c perf_event_open(): perf_need_aux_event() && !perf_get_aux_event() -> -EINVAL",
	.covers = "attr.aux_sample_size size.VER6 errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	attr.aux_sample_size = 4096;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
