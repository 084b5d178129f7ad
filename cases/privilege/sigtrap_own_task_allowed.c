#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a sigtrap event on the own task (pid 0) needs neither CAP_KILL nor any other capability",
	.ref = "kernel/events/core.c perf_check_permission(): ptrace_may_access() of the caller itself always succeeds; perf_event_open(2) sigtrap (since Linux 5.13)",
	.covers = "attr.sigtrap attr.remove_on_exec",
	.min_kernel = "5.13",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int fd;

	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_SELF));
	if (fd >= 0)
		close(fd);
}
