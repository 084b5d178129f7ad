#include "perfabi.h"

/*
 * "A signal is provided for every overflow, even if wakeup_events is not
 * set", on a uprobe PMU sampler (period 1: every call of the probed
 * function is an overflow). The uprobe hit (handle_swbp() ->
 * uprobe_dispatcher() -> __uprobe_perf_func() -> perf_tp_event()) reaches
 * __perf_event_overflow() through perf_swevent_event(), which sets
 * pending_kill = POLL_IN and queues the irq_work that sends the signal,
 * whatever the ring's wakeup state; the ring (wakeup_events 0) is never
 * brought near its half-buffer watermark, so no ring wakeup is involved.
 *
 * K = 8 calls of pa_hit_uprobe_fn(), each waiting (bounded at 10 s) for
 * its signal before the next, so that no two overflows share one irq_work
 * run. F_SETSIG(SIGRTMIN) queues every signal; all are POLL_IN with si_fd
 * the event's fd, and there are exactly as many as calls made while the
 * event was enabled, as many samples of this thread. The uprobe PMU needs
 * CAP_SYS_ADMIN (perf_uprobe_event_init()): elsewhere the EPERM is what is
 * checked. The oracle is pa_hit_expect_sigio_each_overflow()
 * (harness/lib/hitchecks_a.c).
 */
PERFABI_CASE(
	.assertion = "a uprobe PMU sampling event (period 1, wakeup_events 0) with O_ASYNC and F_SETSIG sends one signal per overflow: 8 calls of the probed function, each awaited, give exactly 8 signals, each POLL_IN with si_fd the event, and a count of 8",
	.ref = "perf_event_open(2), Overflow handling: \"On newer kernels (definitely noticed with 3.2) a signal is provided for every overflow, even if wakeup_events is not set\"; fcntl(2) F_SETSIG (si_fd); kernel/events/core.c __perf_event_overflow() (pending_kill, perf_pending_irq()), reached from __uprobe_perf_func() -> perf_tp_event() -> perf_swevent_event()",
	.covers = "fd.F_SETSIG fd.O_ASYNC attr.wakeup_events type.dynamic attr.uprobe_path attr.probe_offset",
	PA_HIT_NEEDS_UPROBE,
	.timeout = 60,
) {
	pa_hit_expect_sigio_each_overflow(PA_HIT_UPROBE);
}
