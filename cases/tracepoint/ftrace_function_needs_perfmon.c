#include "perfabi.h"

/*
 * ftrace:function is the function tracer seen as a tracepoint. Before any
 * other rule, perf_trace_event_perm() asks perf_allow_tracepoint() for it:
 * paranoid -1, or CAP_PERFMON (CAP_SYS_ADMIN before 5.8), else EPERM, for
 * a counter (no PERF_SAMPLE_RAW) as much as for a sampler. A sampler
 * without exclude_callchain_user is then refused with EINVAL, so its errno
 * tells which check decided: EPERM where the caller lacks the privilege,
 * EINVAL where it has it. exclude_kernel is set so that the paranoid check
 * on kernel profiling, which comes earlier, does not decide.
 */
PERFABI_CASE(
	.assertion = "perf_event_open() of the ftrace:function tracepoint needs perf_event_paranoid -1 or CAP_PERFMON (or CAP_SYS_ADMIN), else fails with EPERM, even counting without PERF_SAMPLE_RAW; the check comes before the function event's sampling rules (a sampler without exclude_callchain_user: EPERM without the privilege, EINVAL with it); the same sampler on syscalls:sys_enter_getppid opens",
	.ref = "kernel/trace/trace_event_perf.c perf_trace_event_perm(): \"The ftrace function trace is allowed only for root\" -> perf_allow_tracepoint() before the exclude_callchain_user check; include/linux/perf_event.h perf_allow_tracepoint(); perf_event_open(2) EPERM",
	.covers = "type.TRACEPOINT errno.EPERM errno.EINVAL attr.exclude_callchain_user",
	.min_kernel = "3.7",	/* exclude_callchain_user */
	.tracefs = true,
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_ftrace_function_id_or_skip());
	/* perf_allow_tracepoint() is the rule of RAW tracepoint samples */
	int perm = pa_expected_errno(PA_NEED_RAW_TRACEPOINT);

	pa_diag("%s", pa_context_string());
	attr.exclude_kernel = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, perm ? perm : EINVAL);
	pa_tp_expect_opens_on(&attr, "syscalls", "sys_enter_getppid");
	/* a counter: refused alike without the privilege (with it, the
	 * open goes on to register the function tracer, whose outcome is
	 * not this rule's) */
	if (perm) {
		attr.sample_period = 0;
		attr.sample_type = 0;
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, perm);
	}
}
