#include "perfabi.h"

PERFABI_CASE(
	.assertion = "group_fd naming an event that is itself a sibling (not a group leader) fails with EINVAL: groups do not nest",
	.ref = "perf_event_open(2), group_fd: \"The group leader is the first event created with group_fd = -1\"; kernel/events/core.c perf_event_open(): group_leader->group_leader != group_leader -> -EINVAL",
	.covers = "arg.group_fd errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int leader = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	int sib = ASSERT_OPEN(&attr, 0, -1, leader, 0);

	EXPECT_OPEN_FAIL(&attr, 0, -1, sib, 0, EINVAL);
	/* the leader still accepts members */
	close(ASSERT_OPEN(&attr, 0, -1, leader, 0));
}
