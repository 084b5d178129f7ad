#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

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
 * (here: only) overflow of a hit.
 */
#define N1 3
#define N2 2
#define AFTER 16	/* writes while disabled by the limit */

static volatile uint64_t target __attribute__((aligned(8)));
static struct pa_sigs got;

__attribute__((noinline)) static void write_once(uint64_t v)
{
	target = v;
}

/* one write, then its signal (a failure after 10 s) */
static void hit_once(int step)
{
	siginfo_t si;

	write_once((uint64_t)step);
	if (!pa_sig_wait(SIGRTMIN, &si, 10000)) {
		pa_fail("no signal within 10 s of overflow %d", step);
		pa_abort();
	}
	pa_sigs_record(&got, &si);
	while (pa_sig_wait(SIGRTMIN, &si, 0))
		pa_sigs_record(&got, &si);
}

static void expect_codes(int from, int n, int fd)
{
	for (int i = from; i < from + n; i++) {
		bool last = i == from + n - 1;

		EXPECT_EQ(got.code[i], last ? POLL_HUP : POLL_IN);
		EXPECT_EQ(got.band[i], last ? (long)(POLLHUP | POLLERR) : (long)(POLLIN | POLLRDNORM));
		EXPECT_EQ(got.fd[i], fd);
	}
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
	siginfo_t si;
	int fd;

	a.sample_period = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	write_once(0);				/* disabled: no trap, no count */
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_sig_wait(SIGRTMIN, &si, 0), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, N1));
	for (int step = 1; step <= N1; step++)
		hit_once(step);
	pa_diag("after REFRESH %d: %d signals", N1, got.n);
	ASSERT_EQ(got.n, N1);
	expect_codes(0, N1, fd);
	EXPECT_EQ(pa_read_one(fd), N1);

	/* disabled by the limit: nothing counts, nothing is signalled */
	pa_work_cpu_ms(20);
	for (int i = 0; i < AFTER; i++)
		write_once((uint64_t)(100 + i));
	pa_work_cpu_ms(20);
	while (pa_sig_wait(SIGRTMIN, &si, got.n == N1 ? 100 : 0))
		pa_sigs_record(&got, &si);
	EXPECT_EQ(got.n, N1);
	EXPECT_EQ(pa_read_one(fd), N1);

	/* REFRESH again: exactly N2 more overflows */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, N2));
	for (int step = N1 + 1; step <= N1 + N2; step++)
		hit_once(step);
	for (int i = 0; i < AFTER; i++)
		write_once((uint64_t)(200 + i));
	while (pa_sig_wait(SIGRTMIN, &si, 100))
		pa_sigs_record(&got, &si);
	pa_diag("after REFRESH %d: %d signals in all", N2, got.n);
	ASSERT_EQ(got.n, N1 + N2);
	expect_codes(N1, N2, fd);
	EXPECT_EQ(pa_read_one(fd), N1 + N2);
	close(fd);
}
