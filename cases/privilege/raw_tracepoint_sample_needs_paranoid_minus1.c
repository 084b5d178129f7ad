#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_RAW of a tracepoint that is not flagged for any user (sched:sched_switch) needs paranoid -1 or CAP_PERFMON, else EPERM",
	.ref = "perf_event_open(2), perf_event_paranoid \"-1 Allow use of (almost) all events by all users\" and EPERM; kernel/trace/trace_event_perf.c perf_trace_event_perm() -> perf_allow_tracepoint()",
	.covers = "sample.RAW type.TRACEPOINT sysctl.perf_event_paranoid cap.CAP_PERFMON errno.EPERM",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("sched", "sched_switch"));
	int fd;

	attr.exclude_kernel = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_RAW_TRACEPOINT));
	if (fd >= 0)
		close(fd);
}
