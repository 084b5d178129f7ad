#include "perfabi.h"

/*
 * aux_output asks to write the event's output into the AUX area of its
 * group leader. The software PMU does not have PERF_PMU_CAP_AUX_OUTPUT, so
 * the open fails while the event is allocated (EOPNOTSUPP), before the
 * group leader is even considered.
 */
PERFABI_CASE(
	.assertion = "attr.aux_output on a software event placed in a group led by a software event (no AUX leader) fails with EOPNOTSUPP: the PMU cannot do aux_output",
	.ref = "kernel/events/core.c perf_event_alloc(): aux_output without PERF_PMU_CAP_AUX_OUTPUT -> -EOPNOTSUPP (5.4, ab43762ef010); include/uapi/linux/perf_event.h aux_output \"generate AUX records instead of events\"",
	.covers = "attr.aux_output arg.group_fd errno.EOPNOTSUPP",
	.min_kernel = "5.4",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr lattr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int leader = ASSERT_OPEN(&lattr, 0, -1, -1, 0);

	attr.aux_output = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, leader, 0, EOPNOTSUPP);
	close(leader);
}
