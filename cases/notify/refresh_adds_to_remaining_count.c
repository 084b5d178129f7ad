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

/* Wait up to ms for sig (blocked): its number, or 0 at the timeout. */
static int wait_sig(int sig, siginfo_t *si, int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
	sigset_t set;
	int s;

	sigemptyset(&set);
	sigaddset(&set, sig);
	do
		s = sigtimedwait(&set, si, &ts);
	while (s < 0 && errno == EINTR);
	if (s < 0 && errno != EAGAIN) {
		pa_fail("sigtimedwait: %s", pa_errno_name(errno));
		pa_abort();
	}
	return s < 0 ? 0 : s;
}

static void block_sig(int sig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	ASSERT_OK(sigprocmask(SIG_BLOCK, &set, NULL));
}

/* The signals taken so far, in order. */
#define MAXSIG 64
static struct {
	int n;
	int code[MAXSIG], fd[MAXSIG];
	long band[MAXSIG];
} got;

static void record(const siginfo_t *si)
{
	if (got.n < MAXSIG) {
		got.code[got.n] = si->si_code;
		got.fd[got.n] = si->si_fd;
		got.band[got.n] = (long)si->si_band;
	}
	got.n++;
}

/* Touch one fresh page (one overflow) and take its signal, waiting up to
 * 10 s, and any other already queued. */
static void overflow_once(int sig, int step)
{
	siginfo_t si;

	pa_touch_pages(1);
	if (!wait_sig(sig, &si, 10000)) {
		pa_fail("no signal within 10 s of overflow %d", step);
		pa_abort();
	}
	record(&si);
	while (wait_sig(sig, &si, 0))
		record(&si);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH adds to the remaining count: REFRESH 2 then REFRESH 3 give 5 overflows, 4 signalled with POLL_IN "
		     "and the 5th with POLL_HUP",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"Subsequent calls of this ioctl add the argument value to the current count. "
	       "An overflow notification with POLL_IN set will happen on each overflow until the count reaches 0; when that happens a notification "
	       "with POLL_HUP set is sent\"; kernel/events/core.c _perf_event_refresh()",
	.covers = "fd.F_SETSIG ioctl.REFRESH",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	siginfo_t si;
	int fd;

	block_sig(SIGRTMIN);
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(fcntl(fd, F_SETOWN, getpid()));
	ASSERT_OK(fcntl(fd, F_SETSIG, SIGRTMIN));
	ASSERT_OK(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	/* the code the steps run, once before the event counts */
	pa_touch_pages(1);
	(void)wait_sig(SIGRTMIN, &si, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	for (int step = 1; step <= 2 * N && got.n < MAXSIG; step++) {
		overflow_once(SIGRTMIN, step);
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
