#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_RAW of a syscall tracepoint (TRACE_EVENT_FL_CAP_ANY) attached to a task needs no privilege",
	.ref = "kernel/trace/trace_event_perf.c perf_trace_event_perm(): \"Some events are ok to be traced by non-root users\" (PERF_ATTACH_TASK && TRACE_EVENT_FL_CAP_ANY)",
	.covers = "sample.RAW type.TRACEPOINT sysctl.perf_event_paranoid",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
	int fd;

	attr.exclude_kernel = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_SELF));
	if (fd >= 0)
		close(fd);
}
