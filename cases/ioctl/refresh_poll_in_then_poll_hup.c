#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

/*
 * PERF_EVENT_IOC_REFRESH with N enables the event for N overflows: "An
 * overflow notification with POLL_IN set will happen on each overflow until
 * the count reaches 0; when that happens a notification with POLL_HUP set is
 * sent and the event is disabled". So with N = 3 the signals are exactly
 * POLL_IN, POLL_IN, POLL_HUP (__perf_event_overflow(): pending_kill =
 * POLL_IN, or POLL_HUP when event_limit drops to 0), si_band POLLIN |
 * POLLRDNORM for the first two and POLLHUP | POLLERR for the last
 * (fs/fcntl.c band_table), si_fd the event's fd.
 *
 * The signal is sent from irq_work (perf_pending_irq()), which core.c does
 * not promise to run before the next fault; so the case takes one fault at
 * a time and waits (bounded) for its signal before the next: two overflows
 * never share one irq_work run. F_SETSIG(SIGRTMIN) queues every signal;
 * it is blocked and fetched with sigtimedwait().
 */
#define N 3

static struct pa_sigs got;	/* the signals taken, in order */

PERFABI_CASE(
	.assertion = "after PERF_EVENT_IOC_REFRESH with 3, the first two overflows are signalled with si_code POLL_IN and the third with POLL_HUP: "
		     "exactly 2 POLL_IN then 1 POLL_HUP",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"An overflow notification with POLL_IN set will happen on each overflow until the count reaches 0; "
	       "when that happens a notification with POLL_HUP set is sent and the event is disabled\"; kernel/events/core.c __perf_event_overflow()",
	.covers = "ioctl.REFRESH fd.F_SETSIG",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	siginfo_t si;
	int fd;

	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	/* the code the steps run, once before the event counts */
	pa_touch_pages(1);
	(void)pa_sig_wait(SIGRTMIN, &si, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, N));
	for (int step = 1; step <= 2 * N && got.n < PA_MAX_SIGS; step++) {
		pa_sigs_overflow_once(&got, step);
		if (got.code[got.n - 1] == POLL_HUP)
			break;
	}
	pa_diag("%d signals; first codes %d %d %d", got.n, got.code[0], got.code[1], got.code[2]);
	ASSERT_EQ(got.n, N);
	for (int i = 0; i < N - 1; i++) {
		EXPECT_EQ(got.code[i], POLL_IN);
		EXPECT_EQ(got.band[i], (long)(POLLIN | POLLRDNORM));
		EXPECT_EQ(got.fd[i], fd);
	}
	EXPECT_EQ(got.code[N - 1], POLL_HUP);
	EXPECT_EQ(got.band[N - 1], (long)(POLLHUP | POLLERR));
	EXPECT_EQ(got.fd[N - 1], fd);
	close(fd);
}
