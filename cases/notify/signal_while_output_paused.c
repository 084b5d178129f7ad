#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT stops the writing of records to the ring
 * (__perf_output_begin(): rb->paused, the sample is dropped and counted as
 * lost), but not the overflow itself: __perf_event_overflow() still sets
 * pending_kill = POLL_IN and queues the irq_work that sends the O_ASYNC
 * signal. So while output is paused every overflow is still signalled,
 * nothing is written (data_head stays 0) and, although wakeup_events = 1,
 * poll() does not report the ring readable (no record, no wakeup).
 *
 * K = 4 steps of one fault each, each waiting (bounded at 10 s) for its
 * signal before the next. F_SETSIG(SIGRTMIN) queues every signal: one
 * POLL_IN per overflow counted (period 1: the event's count).
 */
#define K 4

static struct pa_sigs got;	/* the signals taken, in order */

PERFABI_CASE(
	.assertion = "while output is paused (PERF_EVENT_IOC_PAUSE_OUTPUT 1) each overflow still sends its O_ASYNC signal (POLL_IN), "
		     "but no record is written and poll() does not report POLLIN: signals == overflows >= 4, data_head 0",
	.ref = "include/uapi/linux/perf_event.h PERF_EVENT_IOC_PAUSE_OUTPUT (4.7, 86e7972f690c); kernel/events/ring_buffer.c __perf_output_begin() (rb->paused); "
	       "kernel/events/core.c __perf_event_overflow()",
	.covers = "fd.F_SETSIG ioctl.PAUSE_OUTPUT",
	.min_kernel = "4.7",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pollfd p;
	struct pa_ring r;
	siginfo_t si;
	uint64_t n;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	pa_touch_pages(1);
	(void)pa_sig_wait(SIGRTMIN, &si, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int step = 1; step <= K; step++)
		pa_sigs_overflow_once(&got, step);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = pa_read_one(fd);
	pa_sigs_settle(&got, n);
	p.fd = fd;
	p.events = POLLIN;
	p.revents = 0;
	pa_diag("%llu overflows, %d signals, data_head %llu", (unsigned long long)n,
		got.n, (unsigned long long)pa_ring_head(&r));
	EXPECT_GE(n, (uint64_t)K);
	EXPECT_EQ((uint64_t)got.n, n);
	for (int i = 0; i < got.n && i < PA_MAX_SIGS; i++)
		EXPECT_EQ(got.code[i], POLL_IN);
	EXPECT_EQ(pa_ring_head(&r), 0u);
	EXPECT_EQ(poll(&p, 1, 0), 0);
	pa_ring_unmap(&r);
	close(fd);
}
