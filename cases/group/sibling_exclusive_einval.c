#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a sibling with attr.exclusive set fails with EINVAL: only a group leader may be exclusive",
	.ref = "perf_event_open(2), exclusive; kernel/events/core.c perf_event_open(): \"Only a group leader can be exclusive or pinned\" -> -EINVAL",
	.covers = "arg.group_fd attr.exclusive errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int leader = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	attr.exclusive = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, leader, 0, EINVAL);
}
