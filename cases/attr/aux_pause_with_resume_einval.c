#include "perfabi.h"

/*
 * aux_pause and aux_resume are opposite actions: one event cannot do both.
 * With aux_action (6.13, 6.12.24) perf_event_alloc() refuses the pair with
 * EINVAL before it looks for an AUX leader; before aux_action both bits were
 * __reserved_3 and perf_copy_attr() refused them with EINVAL as well. On a
 * software event this only pins the errno: aux_pause alone would also get
 * EINVAL later (no AUX leader), so telling the pair check apart needs an
 * AUX PMU (e.g. intel_pt) as group leader.
 */
PERFABI_CASE(
	.assertion = "attr.aux_pause and attr.aux_resume both set fail with EINVAL (where aux_action exists: the pair is refused; before: reserved bits)",
	.ref = "kernel/events/core.c perf_event_alloc(): \"if (event->attr.aux_pause && event->attr.aux_resume) -EINVAL\" (6.13, 18d92bb57c39); perf_copy_attr() __reserved_3",
	.covers = "attr.aux_pause attr.aux_resume errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	(void)pa_since_aux_action();
	attr.aux_pause = 1;
	attr.aux_resume = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
