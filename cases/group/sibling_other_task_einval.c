#include "perfabi.h"

/*
 * The leader counts this task; a sibling for another task (a child this
 * identity may monitor) would live in another context: EINVAL.
 */
PERFABI_CASE(
	.assertion = "a sibling opened for another task than its group leader fails with EINVAL (all members of a group must be in the same task context)",
	.ref = "perf_event_open(2), EINVAL; kernel/events/core.c perf_event_open(): group_leader->ctx != ctx -> -EINVAL",
	.covers = "arg.group_fd arg.pid errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct pa_puppet child;
	int leader;

	pa_puppet_start(&child);
	leader = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	/* the child alone is a valid target: the refusal is the grouping */
	close(ASSERT_OPEN(&attr, child.pid, -1, -1, 0));
	EXPECT_OPEN_FAIL(&attr, child.pid, -1, leader, 0, EINVAL);
	pa_puppet_stop(&child);
}
