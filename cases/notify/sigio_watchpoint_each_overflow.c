#include "perfabi.h"

/*
 * "a signal is provided for every overflow, even if wakeup_events is not
 * set", on a breakpoint event. A write watchpoint with sample_period 1 and
 * wakeup_events 0 overflows on every write (perf_bp_event() ->
 * perf_swevent_event() -> __perf_event_overflow()), which sets
 * pending_kill = POLL_IN and, the fd having a fasync owner, queues the
 * irq_work that sends it (perf_pending_irq() -> perf_event_wakeup() ->
 * kill_fasync()). The ring is mapped and its samples stay far below the
 * half-buffer wakeup, so the signals are the overflows', not the ring's.
 *
 * K = 8 writes, each waiting (bounded at 10 s) for its signal before the
 * next, so no two overflows share one irq_work run; F_SETSIG(SIGRTMIN)
 * queues every signal. Breakpoint counts are exact: exactly 8 overflows
 * (count 8, 8 samples in the ring, each of this thread at bp_addr),
 * exactly 8 signals, each POLL_IN with si_fd the event's fd. Period 1
 * never throttles (perf_swevent_overflow(event, 1, ...) passes throttle
 * = 0). The oracle is pa_hit_expect_sigio_each_overflow()
 * (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "with O_ASYNC, F_SETSIG and wakeup_events 0, every overflow of a sampling write watchpoint (period 1) sends one "
		     "signal, POLL_IN with si_fd the event's fd: 8 writes give exactly 8 signals, 8 samples and a count of 8",
	.ref = "perf_event_open(2), Overflow handling: \"On newer kernels (definitely noticed with 3.2) a signal is provided for every "
	       "overflow, even if wakeup_events is not set\"; fcntl(2) F_SETSIG (si_fd); kernel/events/core.c perf_bp_event(), "
	       "__perf_event_overflow() (pending_kill = POLL_IN, irq_work_queue(&event->pending_irq))",
	.covers = "fd.F_SETSIG fd.O_ASYNC attr.wakeup_events type.BREAKPOINT",
	PA_HIT_NEEDS_WATCHPOINT,
	.timeout = 30,
) {
	pa_hit_expect_sigio_each_overflow(PA_HIT_WATCHPOINT);
}
