#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

/*
 * "On newer kernels (definitely noticed with 3.2) a signal is provided for
 * every overflow, even if wakeup_events is not set": with wakeup_events = 0
 * (and a ring that no sample brings near its half-buffer watermark), every
 * overflow of an O_ASYNC event sends one signal. __perf_event_overflow()
 * sets pending_kill = POLL_IN on every overflow and queues the irq_work
 * that sends it, whatever the ring's wakeup state.
 *
 * K = 8 steps of one fault each, each waiting (bounded at 10 s) for its
 * signal before the next, so that no two overflows share one irq_work run.
 * F_SETSIG(SIGRTMIN) queues every signal; all are POLL_IN with si_fd the
 * event's fd, and there are exactly as many as the event counted overflows
 * (period 1: its count).
 */
#define K 8

static struct pa_sigs got;	/* the signals taken, in order */

PERFABI_CASE(
	.assertion = "with wakeup_events = 0 and O_ASYNC, every overflow sends one signal (POLL_IN, si_fd the event): signals == overflows counted, >= 8",
	.ref = "perf_event_open(2), Overflow handling: \"On newer kernels (definitely noticed with 3.2) a signal is provided for every overflow, even if "
	       "wakeup_events is not set\"; wakeup_events: \"more recent kernels treat 0 the same as 1\"; kernel/events/core.c __perf_event_overflow()",
	.covers = "fd.F_SETSIG attr.wakeup_events",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	siginfo_t si;
	uint64_t n;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 0;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_touch_pages(1);
	(void)pa_sig_wait(SIGRTMIN, &si, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int step = 1; step <= K; step++)
		pa_sigs_overflow_once(&got, step);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = pa_read_one(fd);
	pa_sigs_settle(&got, n);
	pa_diag("%llu overflows, %d signals, %llu bytes in the ring",
		(unsigned long long)n, got.n, (unsigned long long)pa_ring_head(&r));
	/* the samples stayed below the half-buffer wakeup */
	ASSERT_LE(pa_ring_head(&r), r.data_size / 2);
	EXPECT_GE(n, (uint64_t)K);
	EXPECT_EQ((uint64_t)got.n, n);
	for (int i = 0; i < got.n && i < PA_MAX_SIGS; i++) {
		EXPECT_EQ(got.code[i], POLL_IN);
		EXPECT_EQ(got.fd[i], fd);
	}
	pa_ring_unmap(&r);
	close(fd);
}
