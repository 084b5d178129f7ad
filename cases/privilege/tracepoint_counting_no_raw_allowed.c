#include "perfabi.h"

PERFABI_CASE(
	.assertion = "counting a tracepoint on the own task without PERF_SAMPLE_RAW (user space only) needs no privilege, even for sched:sched_switch",
	.ref = "kernel/trace/trace_event_perf.c perf_trace_event_perm(): \"No tracing, just counting, so no obvious leak\"",
	.covers = "type.TRACEPOINT sysctl.perf_event_paranoid",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("sched", "sched_switch"));
	int fd;

	attr.exclude_kernel = 1;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_SELF));
	if (fd >= 0)
		close(fd);
}
