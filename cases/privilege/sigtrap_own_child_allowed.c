#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a sigtrap event on a child of the same user passes the ptrace attach check without any capability",
	.ref = "kernel/events/core.c perf_check_permission(): PTRACE_MODE_ATTACH_REALCREDS for sigtrap; same uid and a descendant pass ptrace_may_access()",
	.covers = "attr.sigtrap arg.pid",
	.min_kernel = "5.13",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int want = pa_expected_errno(PA_NEED_SELF);
	struct pa_puppet p;
	long scope = pa_sysctl_long("kernel/yama/ptrace_scope");
	int fd;

	if (scope >= 2 && !pa_has_cap(PA_CAP_SYS_PTRACE) && !want)
		pa_skip("Yama ptrace_scope %ld forbids ptrace attach without CAP_SYS_PTRACE", scope);
	pa_puppet_start(&p);
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	fd = EXPECT_OPEN_RESULT(&attr, p.pid, -1, -1, 0, want);
	if (fd >= 0)
		close(fd);
	pa_puppet_stop(&p);
}
