#include "perfabi.h"
#include <fcntl.h>
#include <signal.h>

static volatile sig_atomic_t nsig, last_code, other_code;

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	nsig++;
	if (si->si_code != POLL_IN && si->si_code != POLL_HUP)
		other_code = si->si_code;
	last_code = si->si_code;
}

PERFABI_CASE(
	.assertion = "with O_ASYNC and F_SETSIG, overflows of a PERF_EVENT_IOC_REFRESH'd event are signalled with si_code POLL_IN, and the overflow that exhausts the refresh count with POLL_HUP",
	.ref = "perf_event_open(2), Overflow handling: \"POLL_IN ... POLL_HUP is delivered when the event limit from PERF_EVENT_IOC_REFRESH is reached\"; kernel/events/core.c __perf_event_overflow()",
	.covers = "ioctl.REFRESH",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct sigaction sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO;
	ASSERT_OK(sigaction(SIGRTMIN, &sa, NULL));
	attr.disabled = 1;
	attr.wakeup_events = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(fcntl(fd, F_SETOWN, getpid()));
	ASSERT_OK(fcntl(fd, F_SETSIG, SIGRTMIN));
	ASSERT_OK(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	pa_touch_pages(16);
	/* let any signal still queued be delivered */
	for (int i = 0; i < 100 && last_code != POLL_HUP; i++)
		usleep(1000);
	EXPECT_EQ(pa_read_one(fd), 3);
	EXPECT_GE(nsig, 1);
	EXPECT_LE(nsig, 3);		/* at most one per overflow */
	EXPECT_EQ(last_code, POLL_HUP);
	EXPECT_EQ(other_code, 0);
	pa_diag("%d signals", (int)nsig);
	close(fd);
}
