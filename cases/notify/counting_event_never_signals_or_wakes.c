#include "perfabi.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <time.h>

static void set_async(int fd, int sig)
{
	ASSERT_OK(fcntl(fd, F_SETOWN, getpid()));
	ASSERT_OK(fcntl(fd, F_SETSIG, sig));
	ASSERT_OK(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
}

PERFABI_CASE(
	.assertion = "a counting event (sample_period 0) with O_ASYNC set never sends a signal and poll() never reports it readable, "
		     "though it counts: 32 page faults, 0 signals, poll times out",
	.ref = "perf_event_open(2), Overflow handling: \"Overflows are generated only by sampling events (sample_period must have a nonzero value)\"; "
	       "kernel/events/core.c __perf_event_overflow() (!is_sampling_event), perf_swevent_event()",
	.covers = "fd.O_ASYNC fd.poll attr.sample_period",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr sattr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pollfd p;
	struct pa_ring r;
	siginfo_t si;
	uint64_t n;
	int cfd, sfd;

	pa_sig_block(SIGRTMIN);
	pa_sig_block(SIGRTMIN + 1);
	ASSERT_EQ(cattr.sample_period, 0u);
	cfd = ASSERT_OPEN(&cattr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, cfd, 1);
	set_async(cfd, SIGRTMIN);
	sattr.disabled = 1;
	sfd = ASSERT_OPEN(&sattr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	set_async(sfd, SIGRTMIN + 1);

	ASSERT_OK(ioctl(cfd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(sfd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(32);
	ASSERT_OK(ioctl(sfd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(cfd, PERF_EVENT_IOC_DISABLE, 0));
	if (!pa_sig_wait(SIGRTMIN + 1, &si, 10000)) {
		pa_fail("the sampling event sent no signal within 10 s of 32 overflows");
		pa_abort();
	}
	n = pa_read_one(cfd);
	pa_diag("counting event: %llu faults counted", (unsigned long long)n);
	EXPECT_GE(n, 32u);
	EXPECT_EQ(pa_sig_wait(SIGRTMIN, &si, 0), 0);	/* no signal */
	p.fd = cfd;
	p.events = POLLIN;
	p.revents = 0;
	EXPECT_EQ(poll(&p, 1, 50), 0);			/* never readable */
	EXPECT_EQ(p.revents, 0);
	EXPECT_EQ(pa_ring_head(&r), 0u);		/* nothing written */
	pa_ring_unmap(&r);
	close(sfd);
	close(cfd);
}
