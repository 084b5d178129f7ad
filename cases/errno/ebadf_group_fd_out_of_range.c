#include "perfabi.h"

#include <limits.h>

/*
 * group_fd == -1 means "no group"; any other negative number and numbers
 * no descriptor can have are not valid descriptors.
 */
PERFABI_CASE(
	.assertion = "group_fd that is not a valid descriptor number (-2, INT_MIN, INT_MAX) fails with EBADF; only -1 means no group",
	.ref = "perf_event_open(2), EBADF: \"Returned if the group_fd file descriptor is not valid\"; Arguments: \"group_fd = -1\" creates a new group",
	.covers = "errno.EBADF arg.group_fd",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);

	EXPECT_OPEN_FAIL(&attr, 0, -1, -2, 0, EBADF);
	EXPECT_OPEN_FAIL(&attr, 0, -1, INT_MIN, 0, EBADF);
	EXPECT_OPEN_FAIL(&attr, 0, -1, INT_MAX, 0, EBADF);
	close(ASSERT_OPEN(&attr, 0, -1, -1, 0));
}
