#include "perfabi.h"

/*
 * FD_NO_GROUP drops the grouping, not the lookup: group_fd is still
 * resolved (it may be wanted for FD_OUTPUT), so it must be a perf event
 * fd; -1 with FD_NO_GROUP is simply no group.
 */
PERFABI_CASE(
	.assertion = "with PERF_FLAG_FD_NO_GROUP group_fd is still looked up: a non-perf descriptor (a pipe) fails with EBADF, while group_fd == -1 with the flag opens normally",
	.ref = "kernel/events/core.c perf_event_open(): group_fd != -1 -> perf_fget_light() (-EBADF) before FD_NO_GROUP clears group_leader; perf_event_open(2), PERF_FLAG_FD_NO_GROUP",
	.covers = "flag.FD_NO_GROUP errno.EBADF",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int p[2];

	ASSERT_OK(pipe(p));
	EXPECT_OPEN_FAIL(&attr, 0, -1, p[0], PERF_FLAG_FD_NO_GROUP, EBADF);
	close(ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_NO_GROUP));
}
