#include "perfabi.h"

PERFABI_CASE(
	.assertion = "group_fd that is an open file descriptor but not a perf event (a pipe) fails with EBADF",
	.ref = "perf_event_open(2), EBADF: \"group_fd file descriptor is not valid\"; kernel/events/core.c perf_fget_light(): f_op != &perf_fops -> -EBADF",
	.covers = "arg.group_fd errno.EBADF",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int p[2];

	ASSERT_OK(pipe(p));
	EXPECT_OPEN_FAIL(&attr, 0, -1, p[0], 0, EBADF);
	EXPECT_OPEN_FAIL(&attr, 0, -1, p[1], 0, EBADF);
}
