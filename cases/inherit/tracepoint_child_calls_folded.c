#include "perfabi.h"

/*
 * inherit on a tracepoint event. At fork, inherit_event() gives the child
 * its own copy of the event (perf_event_alloc() with the parent event:
 * perf_tp_event_init() -> perf_trace_init(), whose permission check
 * perf_trace_event_perm() passes a child's event at once), linked into
 * syscalls:sys_enter_getppid's per-CPU hlist while the child runs
 * (perf_trace_add()); the child's getppid() calls count there.
 * exclude_kernel is set (any identity may open it): the syscall
 * tracepoints hand perf the user registers.
 * Two events on this task, both enabled: one without inherit and one
 * with it. The parent makes 3 hits, forks a child that makes 5 and exits,
 * is reaped, and makes 2 more: the non-inherited event counts exactly the
 * parent's 5 (the child has no event of its own: its hits reach nothing),
 * the inherited one exactly 10. The child's count joins the parent's at
 * its exit (perf_event_exit_task() -> perf_event_exit_event() ->
 * sync_child_event(): child_count), before waitpid() returns. The
 * non-inherited event also keeps the child's context from being a clone
 * of the parent's (inherit_task_group() clears inherited_all), so the two
 * are never swapped at a context switch (see
 * probe/uprobe_fork_child_counted_only_inherited's note). The check is
 * pa_hit_expect_inherit_folds() (harness/lib/hitchecks_b.c).
 */
PERFABI_CASE(
	.assertion = "an inherited tracepoint event (syscalls:sys_enter_getppid) counts the calls of a child forked while it is enabled as well as the task's own: the parent's 3 + 2 calls and the child's 5 read 10 after the child exited, while a non-inherited twin counts exactly the parent's 5",
	.ref = "perf_event_open(2), inherit: \"The inherit bit specifies that this counter should count events of child tasks as well as the task specified\"; kernel/events/core.c inherit_event(), perf_event_exit_event(), sync_child_event(); kernel/trace/trace_event_perf.c perf_trace_event_perm() (p_event->parent)",
	.covers = "attr.inherit type.TRACEPOINT",
	PA_HIT_NEEDS_TRACEPOINT,
) {
	pa_hit_expect_inherit_folds(PA_HIT_TRACEPOINT);
}
