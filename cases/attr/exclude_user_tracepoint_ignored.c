#include "perfabi.h"

/*
 * The man page and the kernel disagree: exclude_user "excludes events
 * that happen in user space", but the tracing PMUs never test it. A
 * tracepoint hit reaches the event through perf_tp_event() ->
 * perf_tp_event_match() (kernel/events/core.c, 6.12 lines 10493-10509),
 * whose only privilege-level test is
 *	if (event->attr.exclude_kernel && !user_mode(regs))
 *		return 0;
 * and it never calls perf_exclude_event(), where the software and
 * breakpoint PMUs test exclude_user. syscalls:sys_enter_getppid hands
 * perf the syscall's user registers (perf_syscall_enter()), so its hits
 * pass exclude_kernel and exclude_user alike: the event with both bits
 * set, which any identity may open (perf_trace_event_perm() lets counting
 * through), counts every one of 7 getppid() calls. This pins what the
 * kernel does; a kernel that starts honouring exclude_user here (count
 * 0) fails it and makes it a pa_since() variant.
 * Then the same hits again for a twin with both bits clear, opened where
 * the rules let this identity count the kernel
 * (pa_expected_errno(PA_NEED_KERNEL); elsewhere the refusal is checked):
 * it counts every hit, which shows the hits happen. One event at a time:
 * under QEMU's TCG two watchpoints on one word do not both trap. The
 * check is pa_hit_expect_exclude() (harness/lib/hitchecks_b.c).
 */
PERFABI_CASE(
	.assertion = "exclude_user is not applied to tracepoint events: syscalls:sys_enter_getppid opened with exclude_user and exclude_kernel set counts every one of 7 getppid() calls, whose hits carry the syscall's user registers (the man page says exclude_user excludes user-space events; perf_tp_event_match() tests only exclude_kernel); its twin with both bits clear, where it may open, counts 7 too",
	.ref = "perf_event_open(2), exclude_user: \"If this bit is set, the count excludes events that happen in user space\"; kernel/events/core.c perf_tp_event_match() (only exclude_kernel && !user_mode(regs)), perf_exclude_event() (not called for tracepoints); kernel/trace/trace_syscalls.c perf_syscall_enter()",
	.covers = "attr.exclude_user attr.exclude_kernel type.TRACEPOINT",
	PA_HIT_NEEDS_TRACEPOINT,
	.privileged = true,	/* the twin: counting the kernel */
) {
	pa_hit_expect_exclude(PA_HIT_TRACEPOINT, &(struct pa_hit_exclude){
		.exclude_user = true, .exclude_kernel = true, .hits = 7, .want = 7 });
}
