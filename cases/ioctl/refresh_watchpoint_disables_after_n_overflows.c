#include "perfabi.h"

#include <signal.h>

/*
 * PERF_EVENT_IOC_REFRESH on a breakpoint event. A write watchpoint with
 * sample_period 1 overflows on every write (perf_bp_event() ->
 * perf_swevent_event() -> perf_swevent_overflow(event, 1, ...)), and every
 * overflow runs __perf_event_overflow(), which decrements event_limit:
 * POLL_IN on each overflow, POLL_HUP and perf_event_disable_inatomic() on
 * the one that brings it to 0. The disable is an irq_work raised from the
 * #DB handler; it runs event_sched_out() -> hw_breakpoint_del(), which
 * uninstalls the debug register, so later writes do not trap and are not
 * counted. A second REFRESH adds to event_limit and enables it again.
 *
 * Breakpoint counts are exact: each write to the watched u64 is one trap.
 * One write at a time, each signal awaited (bounded) before the next, so no
 * two overflows share one irq_work run. F_SETSIG(SIGRTMIN) queues every
 * signal; it is blocked and taken with sigtimedwait(). Period 1 never
 * throttles: perf_swevent_overflow() passes throttle = 0 for the first
 * (here: only) overflow of a hit. (pa_refresh_rounds(): the sequence for
 * every implementation.)
 */

static volatile uint64_t target __attribute__((aligned(8)));
static struct pa_sigs got;

__attribute__((noinline)) static void writes(int n)
{
	for (int i = 0; i < n; i++)
		target = (uint64_t)i;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH n on a sampling write watchpoint (period 1): each of the next n writes is one overflow, "
		     "signalled POLL_IN, the n-th POLL_HUP, and the event is then disabled (further writes are not counted and not "
		     "signalled); a second REFRESH m re-enables it for exactly m more",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Non-inherited overflow counters can use this to enable a counter for a number "
	       "of overflows specified by the argument, after which it is disabled. Subsequent calls of this ioctl add the argument value to the "
	       "current count\"; Overflow handling: \"This ioctl adds to a counter that decrements each time the event overflows. When nonzero, "
	       "POLL_IN is indicated, but once the counter reaches 0 POLL_HUP is indicated and the underlying event is disabled\"; kernel/events/core.c _perf_event_refresh(), "
	       "__perf_event_overflow() (event_limit, perf_event_disable_inatomic()), perf_bp_event(); kernel/events/hw_breakpoint.c hw_breakpoint_del()",
	.covers = "ioctl.REFRESH type.BREAKPOINT fd.F_SETSIG fd.O_ASYNC",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
	.timeout = 30,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	static const int refresh[] = { 3, 2 };
	int fd;

	a.sample_period = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_refresh_rounds(fd, &got, writes, refresh, 2);
	close(fd);
}
