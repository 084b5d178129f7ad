#include "perfabi.h"

/*
 * The man page and the kernel disagree: exclude_user "excludes events
 * that happen in user space", and a uprobe hit happens in user space by
 * definition (the probed instruction of a user process), yet the uprobe
 * PMU never tests exclude_user. A hit reaches the event through
 * __uprobe_perf_func() -> perf_trace_buf_submit() -> perf_tp_event() ->
 * perf_tp_event_match() (kernel/events/core.c, 6.12 lines 10493-10509),
 * whose only privilege-level test is
 *	if (event->attr.exclude_kernel && !user_mode(regs))
 *		return 0;
 * with the user registers of the probed task, and perf_exclude_event()
 * (where the software and breakpoint PMUs test exclude_user) is never
 * called. So a uprobe event with exclude_user and exclude_kernel both
 * set counts every one of 7 calls of the probed function. This pins what
 * the kernel does; a kernel that starts honouring exclude_user here
 * (count 0) fails it and makes it a pa_since() variant. The uprobe PMU
 * needs CAP_SYS_ADMIN (perf_uprobe_event_init()): where the rules refuse
 * the open, the refusal is the check.
 * Then the same hits again for a twin with both bits clear, opened where
 * the rules let this identity count the kernel
 * (pa_expected_errno(PA_NEED_KERNEL); elsewhere the refusal is checked):
 * it counts every hit, which shows the hits happen. One event at a time:
 * under QEMU's TCG two watchpoints on one word do not both trap. The
 * check is pa_hit_expect_exclude() (harness/lib/hitchecks_b.c).
 */
PERFABI_CASE(
	.assertion = "exclude_user is not applied to uprobe PMU events: a uprobe on a function of the own executable opened with exclude_user and exclude_kernel set counts every one of 7 calls, hits made in user space (the man page says exclude_user excludes user-space events; perf_tp_event_match() tests only exclude_kernel); its twin with both bits clear counts 7 too",
	.ref = "perf_event_open(2), exclude_user: \"If this bit is set, the count excludes events that happen in user space\"; kernel/events/core.c perf_tp_event_match() (only exclude_kernel && !user_mode(regs)), perf_exclude_event() (not called for probes); kernel/trace/trace_uprobe.c __uprobe_perf_func()",
	.covers = "attr.exclude_user attr.exclude_kernel type.dynamic attr.uprobe_path attr.probe_offset",
	PA_HIT_NEEDS_UPROBE,
	.privileged = true,	/* the twin: counting the kernel */
) {
	pa_hit_expect_exclude(PA_HIT_UPROBE, &(struct pa_hit_exclude){
		.exclude_user = true, .exclude_kernel = true, .hits = 7, .want = 7 });
}
