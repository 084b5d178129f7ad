#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>

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
 * K writes, each waiting (bounded at 10 s) for its signal before the next,
 * so no two overflows share one irq_work run; F_SETSIG(SIGRTMIN) queues
 * every signal. Breakpoint counts are exact: exactly K overflows (count K,
 * K samples in the ring, each at bp_addr), exactly K signals, each POLL_IN
 * with si_fd the event's fd. Period 1 never throttles
 * (perf_swevent_overflow(event, 1, ...) passes throttle = 0); a THROTTLE
 * record all the same goes to pa_throttled_in_burst().
 */
#define K 8

static volatile uint64_t target __attribute__((aligned(8)));
static struct pa_sigs got;

__attribute__((noinline)) static void write_once(uint64_t v)
{
	target = v;
}

PERFABI_CASE(
	.assertion = "with O_ASYNC, F_SETSIG and wakeup_events 0, every overflow of a sampling write watchpoint (period 1) sends one "
		     "signal, POLL_IN with si_fd the event's fd: 8 writes give exactly 8 signals, 8 samples and a count of 8",
	.ref = "perf_event_open(2), Overflow handling: \"On newer kernels (definitely noticed with 3.2) a signal is provided for every "
	       "overflow, even if wakeup_events is not set\"; fcntl(2) F_SETSIG (si_fd); kernel/events/core.c perf_bp_event(), "
	       "__perf_event_overflow() (pending_kill = POLL_IN, irq_work_queue(&event->pending_irq))",
	.covers = "fd.F_SETSIG fd.O_ASYNC attr.wakeup_events type.BREAKPOINT",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
	.timeout = 30,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	const struct perf_event_header *h;
	int fd, samples = 0, throttled = 0;
	struct pa_sample s;
	struct pa_ring r;
	siginfo_t si;
	uint64_t n;

	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_ADDR;
	a.wakeup_events = 0;
	fd = ASSERT_OPEN(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	write_once(0);				/* disabled: nothing */
	ASSERT_EQ(pa_sig_wait(SIGRTMIN, &si, 0), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int step = 1; step <= K; step++) {
		write_once((uint64_t)step);
		if (!pa_sig_wait(SIGRTMIN, &si, 10000)) {
			pa_diag("no signal within 10 s of write %d", step);
			break;
		}
		pa_sigs_record(&got, &si);
		while (pa_sig_wait(SIGRTMIN, &si, 0))
			pa_sigs_record(&got, &si);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = pa_read_one(fd);
	pa_sigs_settle(&got, n);
	pa_diag("%llu overflows, %d signals, %llu bytes in the ring", (unsigned long long)n, got.n,
		(unsigned long long)pa_ring_head(&r));
	/* the samples stayed below the half-buffer wakeup */
	ASSERT_LE(pa_ring_head(&r), r.data_size / 2);
	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE) {
			throttled++;
			continue;
		}
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("unexpected record type %u", h->type);
			continue;
		}
		if (!pa_sample_parse(&a, h, &s))
			pa_abort();
		EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)&target);
		samples++;
	}
	if (throttled)
		pa_throttled_in_burst(K);
	EXPECT_EQ(n, (uint64_t)K);
	EXPECT_EQ(samples, K);
	EXPECT_EQ(got.n, K);
	for (int i = 0; i < got.n && i < PA_MAX_SIGS; i++) {
		EXPECT_EQ(got.code[i], POLL_IN);
		EXPECT_EQ(got.band[i], (long)(POLLIN | POLLRDNORM));
		EXPECT_EQ(got.fd[i], fd);
	}
	pa_ring_unmap(&r);
	close(fd);
}
