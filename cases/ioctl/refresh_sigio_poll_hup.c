#include "perfabi.h"
#include <fcntl.h>
#include <signal.h>

#define MAXSIG 8

static volatile sig_atomic_t nsig;
static volatile int codes[MAXSIG], fds[MAXSIG];

static void on_sig(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (nsig < MAXSIG) {
		codes[nsig] = si->si_code;
		fds[nsig] = si->si_fd;
	}
	nsig++;
}

/* Signals are sent from irq_work (perf_pending_irq()): on x86 at once,
 * elsewhere by the next tick. Spend CPU time until `want` arrived. */
static void wait_signals(int want)
{
	for (int i = 0; i < 200 && nsig < want; i++)
		pa_work_cpu_ms(1);
}

PERFABI_CASE(
	.assertion = "with O_ASYNC and F_SETSIG, each overflow of a PERF_EVENT_IOC_REFRESH'd event is signalled with si_code POLL_IN and si_fd the event's fd, and the overflow that exhausts the refresh count with POLL_HUP; after it the event is disabled and no more signals come",
	.ref = "perf_event_open(2), Overflow handling: \"POLL_IN ... POLL_HUP is delivered when the event limit from PERF_EVENT_IOC_REFRESH is reached\"; fcntl(2) F_SETSIG (si_fd); kernel/events/core.c __perf_event_overflow()",
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
	/* fault in the code and stack used below (the handler too): every
	 * fault counted is a touched page */
	ASSERT_OK(raise(SIGRTMIN));
	pa_touch_pages(1);
	wait_signals(1);
	ASSERT_EQ(nsig, 1);
	nsig = 0;

	/* one fault at a time, each signal awaited: no two overflows share
	 * one irq_work run (which would send only the last code) */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	for (int i = 1; i <= 3; i++) {
		pa_touch_pages(1);
		wait_signals(i);
		EXPECT_EQ(nsig, i);
	}
	EXPECT_EQ(pa_read_one(fd), 3);
	ASSERT_EQ(nsig, 3);
	EXPECT_EQ(codes[0], POLL_IN);
	EXPECT_EQ(codes[1], POLL_IN);
	EXPECT_EQ(codes[2], POLL_HUP);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(fds[i], fd);

	/* disabled now: nothing counts, nothing is signalled */
	pa_work_cpu_ms(20);
	pa_touch_pages(8);
	pa_work_cpu_ms(20);
	EXPECT_EQ(pa_read_one(fd), 3);
	EXPECT_EQ(nsig, 3);
	close(fd);
}
