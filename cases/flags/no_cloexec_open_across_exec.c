#include "perfabi.h"

#include <fcntl.h>

PERFABI_CASE(
	.assertion = "without PERF_FLAG_FD_CLOEXEC the event fd has no FD_CLOEXEC and stays open, still a perf event, in the program started by execve()",
	.ref = "perf_event_open(2), flags: PERF_FLAG_FD_CLOEXEC; open(2): descriptors stay open across execve() unless close-on-exec is set",
	.covers = "flag.FD_CLOEXEC arg.flags",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	char num[16];
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	EXPECT_FALSE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	snprintf(num, sizeof(num), "%d", fd);
	/* fd_state exits 0 when the fd is closed, 1 when it is a perf fd */
	EXPECT_EQ(pa_run_fixture("fd_state", num), 1);
}
