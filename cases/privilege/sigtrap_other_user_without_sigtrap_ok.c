#include "perfabi.h"

PERFABI_CASE(
	.assertion = "the same event without sigtrap on another user's task needs only CAP_PERFMON: the CAP_KILL requirement is specific to sigtrap",
	.ref = "kernel/events/core.c perf_check_permission(): ptrace_mode READ and is_capable = perfmon_capable() unless attr->sigtrap",
	.covers = "attr.remove_on_exec cap.CAP_PERFMON",
	.min_kernel = "5.13",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	pid_t pid = pa_other_uid_task();
	int fd;

	attr.remove_on_exec = 1;
	fd = EXPECT_OPEN_RESULT(&attr, pid, -1, -1, 0,
				pa_expected_errno(PA_NEED_OTHER_USER_TASK));
	if (fd >= 0)
		close(fd);
}
