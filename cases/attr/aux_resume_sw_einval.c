#include "perfabi.h"

/*
 * aux_resume (aux_action bit 2) makes the event resume the AUX tracing of
 * its group leader, so it needs an AUX-capable group leader. A lone
 * software event has none -> EINVAL. Before aux_action existed (6.13,
 * 6.12.24 in 6.12.y) the bit was part of __reserved_3 -> also EINVAL, from
 * perf_copy_attr(); the errno is the same on every kernel.
 */
PERFABI_CASE(
	.assertion = "aux_resume on an event without an AUX group leader fails with EINVAL (a reserved bit, also EINVAL, before aux_action)",
	.ref = "include/uapi/linux/perf_event.h aux_action; kernel/events/core.c perf_event_open(): perf_need_aux_event() && !perf_get_aux_event() -> -EINVAL",
	.covers = "attr.aux_action attr.aux_resume errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	if (pa_since_aux_action())
		pa_diag("aux_resume is known: refused for want of an AUX group leader");
	else
		pa_diag("aux_resume is a __reserved_3 bit on this kernel");
	attr.aux_resume = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
