#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>

/*
 * poll() on an event that has no ring buffer mapped reports POLLHUP at once:
 * perf_poll() starts from EPOLLHUP and replaces it with the ring's poll
 * state only when there is a ring. This holds for a live, enabled sampling
 * event on this task (and for a counting one); mapping a ring makes the
 * same fd not readable, and unmapping it (the last mapping gone, the ring
 * is detached) brings POLLHUP back.
 */
PERFABI_CASE(
	.assertion = "poll() on a live event with no ring buffer mapped returns POLLHUP at once (sampling and counting events alike); "
		     "with a ring mapped the same fd is not readable, and after munmap POLLHUP again",
	.ref = "kernel/events/core.c perf_poll(): \"__poll_t events = EPOLLHUP; ... if (rb) events = atomic_xchg(&rb->poll, 0)\" (seed OVF-12); "
	       "perf_event_open(2), Overflow handling",
	.covers = "fd.poll mmap.size",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr sattr = pa_sw_sampling_attr(PERF_COUNT_SW_TASK_CLOCK, 1000000000ULL);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct pa_ring r;
	int sfd, cfd;

	sfd = ASSERT_OPEN(&sattr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	cfd = ASSERT_OPEN(&cattr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(cfd, PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(pa_poll_now(sfd), POLLHUP);
	EXPECT_EQ(pa_poll_now(cfd), POLLHUP);
	pa_ring_map(&r, sfd, 1);
	EXPECT_EQ(pa_poll_now(sfd), 0);
	pa_ring_unmap(&r);
	EXPECT_EQ(pa_poll_now(sfd), POLLHUP);
	close(cfd);
	close(sfd);
}
