#include "perfabi.h"

#include <time.h>

PERFABI_CASE(
	.assertion = "a sibling whose clock differs from its group leader's (leader use_clockid CLOCK_MONOTONIC_RAW, sibling the default perf clock) fails with EINVAL; a sibling with the same clockid joins",
	.ref = "kernel/events/core.c perf_event_open(): \"All events in a group should have the same clock\" -> -EINVAL; perf_event_open(2), use_clockid (since 4.1)",
	.covers = "arg.group_fd attr.use_clockid errno.EINVAL",
	.min_kernel = "4.1",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int leader;

	l.use_clockid = 1;
	l.clockid = CLOCK_MONOTONIC_RAW;
	leader = ASSERT_OPEN(&l, 0, -1, -1, 0);
	EXPECT_OPEN_FAIL(&s, 0, -1, leader, 0, EINVAL);
	close(ASSERT_OPEN(&l, 0, -1, leader, 0));
}
