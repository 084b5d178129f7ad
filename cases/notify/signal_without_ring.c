#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

/*
 * A sampling event that has no ring mapped still signals its overflows
 * (perf_event_open(2), mmap: "Before Linux 2.6.39, there is a bug that
 * means you must allocate an mmap ring buffer when sampling even if you do
 * not plan to access it"). The sample has nowhere to go
 * (__perf_output_begin(): no rb), but __perf_event_overflow() still sets
 * pending_kill = POLL_IN and queues the irq_work that sends the signal.
 *
 * K = 4 steps of one fault each, each waiting (bounded at 10 s) for its
 * signal before the next. F_SETSIG(SIGRTMIN) queues every signal: one
 * POLL_IN per overflow counted (period 1: the event's count).
 */
#define K 4

static struct pa_sigs got;	/* the signals taken, in order */

PERFABI_CASE(
	.assertion = "a sampling event without a mapped ring buffer still sends its O_ASYNC signal on every overflow (POLL_IN, si_fd the event): "
		     "signals == overflows counted, >= 4",
	.ref = "perf_event_open(2), mmap: \"Before Linux 2.6.39, there is a bug that means you must allocate an mmap ring buffer when sampling even if "
	       "you do not plan to access it\"; Overflow handling; kernel/events/core.c __perf_event_overflow()",
	.covers = "fd.F_SETSIG attr.sample_period mmap.size",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	siginfo_t si;
	uint64_t n;
	int fd;

	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_touch_pages(1);
	(void)pa_sig_wait(SIGRTMIN, &si, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int step = 1; step <= K; step++)
		pa_sigs_overflow_once(&got, step);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	n = pa_read_one(fd);
	pa_sigs_settle(&got, n);
	pa_diag("%llu overflows, %d signals", (unsigned long long)n, got.n);
	EXPECT_GE(n, (uint64_t)K);
	EXPECT_EQ((uint64_t)got.n, n);
	for (int i = 0; i < got.n && i < PA_MAX_SIGS; i++) {
		EXPECT_EQ(got.code[i], POLL_IN);
		EXPECT_EQ(got.fd[i], fd);
	}
	close(fd);
}
