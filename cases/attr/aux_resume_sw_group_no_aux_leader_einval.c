#include "perfabi.h"

/*
 * aux_resume acts on the group's AUX event: a sibling with aux_resume in a
 * group led by a software event has none, and perf_get_aux_event() fails
 * (EINVAL). Before aux_action the bit was __reserved_3: EINVAL too.
 */
PERFABI_CASE(
	.assertion = "attr.aux_resume on a software sibling of a software group leader (no AUX event to resume) fails with EINVAL",
	.ref = "kernel/events/core.c perf_event_open(): \"if (!perf_get_aux_event(event, group_leader)) goto err_locked\" (-EINVAL), perf_get_aux_event() \"(aux_pause || aux_resume) && !(group_leader->pmu->capabilities & PERF_PMU_CAP_AUX_PAUSE)\" (6.13)",
	.covers = "attr.aux_resume arg.group_fd errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr lattr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int leader;

	(void)pa_since_aux_action();
	leader = ASSERT_OPEN(&lattr, 0, -1, -1, 0);
	attr.aux_resume = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, leader, 0, EINVAL);
	close(leader);
}
