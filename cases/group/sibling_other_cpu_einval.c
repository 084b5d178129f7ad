#include "perfabi.h"

/*
 * Leader: this task on any CPU. Sibling: this task on CPU 0 only. The
 * group cannot be scheduled as a unit: EINVAL.
 */
PERFABI_CASE(
	.assertion = "a sibling whose cpu differs from its group leader's (-1 vs 0) fails with EINVAL",
	.ref = "perf_event_open(2), EINVAL; kernel/events/core.c perf_event_open(): group_leader->cpu != event->cpu -> -EINVAL",
	.covers = "arg.group_fd arg.cpu errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int leader = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	/* alone, a per-task event on CPU 0 is valid */
	close(ASSERT_OPEN(&attr, 0, 0, -1, 0));
	EXPECT_OPEN_FAIL(&attr, 0, 0, leader, 0, EINVAL);

	/* and the other way round: leader on CPU 0, sibling on any CPU */
	leader = ASSERT_OPEN(&attr, 0, 0, -1, 0);
	EXPECT_OPEN_FAIL(&attr, 0, -1, leader, 0, EINVAL);
}
