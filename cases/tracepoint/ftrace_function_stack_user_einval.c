#include "perfabi.h"

/*
 * A sampling ftrace:function event may not dump the user stack
 * (PERF_SAMPLE_STACK_USER), for the reason it may not take a user
 * callchain: page faults while tracing the fault handler. The check
 * follows the privilege check (perf_allow_tracepoint(): EPERM first) and
 * the exclude_callchain_user one, which is set here; the same attr on
 * syscalls:sys_enter_getppid opens, so the EINVAL is the function event's.
 * The case never lets a function event open: that registers the function
 * tracer on every kernel function, which stalled an emulated guest for
 * minutes (Debian 6.1 under TCG).
 */
PERFABI_CASE(
	.assertion = "a sampling ftrace:function event with exclude_callchain_user set and PERF_SAMPLE_STACK_USER fails with EINVAL (after the EPERM of the privilege check), and the same attr on syscalls:sys_enter_getppid opens",
	.ref = "kernel/trace/trace_event_perf.c perf_trace_event_perm(): \"Same reason to disable user stack dump as for user space callchains above\" -> -EINVAL for PERF_SAMPLE_STACK_USER on the function event; perf_event_open(2) PERF_SAMPLE_STACK_USER",
	.covers = "type.TRACEPOINT sample.STACK_USER attr.sample_stack_user attr.exclude_callchain_user errno.EINVAL",
	.min_kernel = "3.7",	/* PERF_SAMPLE_STACK_USER */
	.tracefs = true,
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_ftrace_function_id_or_skip());
	int perm = pa_expected_errno(PA_NEED_RAW_TRACEPOINT);

	pa_diag("%s", pa_context_string());
	attr.exclude_kernel = 1;
	attr.exclude_callchain_user = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 64;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, perm ? perm : EINVAL);
	pa_tp_expect_opens_on(&attr, "syscalls", "sys_enter_getppid");
}
