#include "perfabi.h"

PERFABI_CASE(
	.assertion = "for a per-task event, a sibling whose attr.inherit differs from its group leader's fails with EINVAL (both directions); a sibling with the same inherit joins",
	.ref = "kernel/events/core.c perf_event_open(): task && group_leader && group_leader->attr.inherit != attr.inherit -> -EINVAL; perf_event_open(2), inherit",
	.covers = "arg.group_fd attr.inherit errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int leader;

	b.inherit = 1;
	leader = ASSERT_OPEN(&a, 0, -1, -1, 0);
	EXPECT_OPEN_FAIL(&b, 0, -1, leader, 0, EINVAL);
	close(ASSERT_OPEN(&a, 0, -1, leader, 0));

	leader = ASSERT_OPEN(&b, 0, -1, -1, 0);
	EXPECT_OPEN_FAIL(&a, 0, -1, leader, 0, EINVAL);
	close(ASSERT_OPEN(&b, 0, -1, leader, 0));
}
