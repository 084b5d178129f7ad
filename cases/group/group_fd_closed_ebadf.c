#include "perfabi.h"

PERFABI_CASE(
	.assertion = "group_fd naming a closed descriptor (a perf event fd after close()) fails with EBADF",
	.ref = "perf_event_open(2), EBADF: \"group_fd file descriptor is not valid\"",
	.covers = "arg.group_fd errno.EBADF",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int leader = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	ASSERT_OK(close(leader));
	EXPECT_OPEN_FAIL(&attr, 0, -1, leader, 0, EBADF);
}
