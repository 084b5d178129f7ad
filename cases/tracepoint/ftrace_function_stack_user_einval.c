#include "perfabi.h"

/*
 * A sampling ftrace:function event may not dump the user stack
 * (PERF_SAMPLE_STACK_USER), for the reason it may not take a user
 * callchain: page faults while tracing the fault handler. The check
 * follows the privilege check (perf_allow_tracepoint(): EPERM first) and
 * the exclude_callchain_user one, which is set here. The same attr
 * without STACK_USER gets past both rules, and the same attr on
 * syscalls:sys_enter_getppid opens: the EINVAL is the function event's.
 */
PERFABI_CASE(
	.assertion = "a sampling ftrace:function event with exclude_callchain_user set and PERF_SAMPLE_STACK_USER fails with EINVAL (after the EPERM of the privilege check); without PERF_SAMPLE_STACK_USER it is not refused with EINVAL, and the same attr on syscalls:sys_enter_getppid opens",
	.ref = "kernel/trace/trace_event_perf.c perf_trace_event_perm(): \"Same reason to disable user stack dump as for user space callchains above\" -> -EINVAL for PERF_SAMPLE_STACK_USER on the function event; perf_event_open(2) PERF_SAMPLE_STACK_USER",
	.covers = "type.TRACEPOINT sample.STACK_USER attr.sample_stack_user attr.exclude_callchain_user errno.EINVAL",
	.min_kernel = "3.7",	/* PERF_SAMPLE_STACK_USER */
	.tracefs = true,
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_ftrace_function_id_or_skip());
	int perm = pa_expected_errno(PA_NEED_RAW_TRACEPOINT);
	int fd;

	pa_diag("%s", pa_context_string());
	attr.exclude_kernel = 1;
	attr.exclude_callchain_user = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 64;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, perm ? perm : EINVAL);
	pa_tp_expect_opens_on(&attr, "syscalls", "sys_enter_getppid");

	/* without the user stack: past the function event's rules (the open
	 * then registers the function tracer, whose outcome is not theirs) */
	attr.sample_type = PERF_SAMPLE_IP;
	errno = 0;
	fd = pa_perf_open(&attr, 0, -1, -1, 0);
	if (perm) {
		EXPECT_EQ(fd, -1);
		EXPECT_EQ(errno, perm);
	} else if (fd < 0) {
		pa_diag("without STACK_USER: %s, from a later step of the open",
			pa_errno_name(errno));
		EXPECT_NE(errno, EINVAL);
	} else {
		EXPECT_GE(fd, 0);
	}
	if (fd >= 0)
		close(fd);
}
