#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a sigtrap event on another user's task needs CAP_PERFMON and CAP_KILL together; CAP_PERFMON or CAP_SYS_ADMIN alone falls back to a ptrace attach check, which fails across uids: EACCES",
	.ref = "kernel/events/core.c perf_check_permission(): \"perf_event_attr::sigtrap sends signals to the other task. Require the current task to also have CAP_KILL\"; 5.14 \"perf: Require CAP_KILL if sigtrap is requested\"",
	.covers = "attr.sigtrap cap.CAP_KILL cap.CAP_PERFMON errno.EACCES",
	.min_kernel = "5.14",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	pid_t pid = pa_other_uid_task();
	int want = pa_expected_errno(PA_NEED_SELF);
	int fd;

	if (!want)
		want = pa_perfmon_capable() && pa_has_cap(PA_CAP_KILL) ? 0 : EACCES;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	fd = EXPECT_OPEN_RESULT(&attr, pid, -1, -1, 0, want);
	if (fd >= 0)
		close(fd);
}
