#include "perfabi.h"

PERFABI_CASE(
	.assertion = "attaching to a task of another user needs ptrace read access (PTRACE_MODE_READ_REALCREDS) or CAP_PERFMON (5.9+; CAP_SYS_ADMIN), else EACCES",
	.ref = "perf_event_open(2), EACCES \"...the calling process does not have the required permissions\"; kernel/events/core.c perf_check_permission()",
	.covers = "arg.pid cap.CAP_PERFMON cap.CAP_SYS_ADMIN errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	pid_t pid = pa_other_uid_task();
	int fd;

	fd = EXPECT_OPEN_RESULT(&attr, pid, -1, -1, 0,
				pa_expected_errno(PA_NEED_OTHER_USER_TASK));
	if (fd >= 0)
		close(fd);
}
