#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

/*
 * "Subsequent calls of this ioctl add the argument value to the current
 * count": PERF_EVENT_IOC_REFRESH 2 and then 3, before any overflow, give 5
 * overflows: 4 signalled with POLL_IN, the 5th with POLL_HUP
 * (_perf_event_refresh(): atomic_add to event_limit).
 *
 * The signal is sent from irq_work (perf_pending_irq()), which core.c does
 * not promise to run before the next fault; so the case takes one fault at
 * a time and waits (bounded) for its signal before the next. F_SETSIG
 * (SIGRTMIN) queues every signal; it is blocked and fetched with
 * sigtimedwait().
 */
#define N 5

static struct pa_sigs got;	/* the signals taken, in order */

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH adds to the remaining count: REFRESH 2 then REFRESH 3 give 5 overflows, 4 signalled with POLL_IN "
		     "and the 5th with POLL_HUP",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Subsequent calls of this ioctl add the argument value to the current count. "
	       "An overflow notification with POLL_IN set will happen on each overflow until the count reaches 0; when that happens a notification "
	       "with POLL_HUP set is sent\"; kernel/events/core.c _perf_event_refresh()",
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
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	for (int step = 1; step <= 2 * N && got.n < PA_MAX_SIGS; step++) {
		pa_sigs_overflow_once(&got, step);
		if (got.code[got.n - 1] == POLL_HUP)
			break;
	}
	pa_diag("%d signals, the last with si_code %d", got.n, got.n ? got.code[got.n - 1] : 0);
	ASSERT_EQ(got.n, N);
	for (int i = 0; i < N - 1; i++)
		EXPECT_EQ(got.code[i], POLL_IN);
	EXPECT_EQ(got.code[N - 1], POLL_HUP);
	close(fd);
}
