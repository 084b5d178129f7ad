#include "perfabi.h"

#include <poll.h>

PERFABI_CASE(
	.assertion = "poll() on an event that has no ring buffer mapped reports "
		     "POLLHUP at once, though its task is alive; once a ring is "
		     "mapped, the same counting event reports nothing",
	.ref = "kernel/events/core.c perf_poll(): events = EPOLLHUP, replaced by "
	       "the ring's poll state only when event->rb is set",
	.covers = "fd.poll mmap.size",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct pollfd p;
	struct pa_ring ring;
	int fd;

	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	p = (struct pollfd){ .fd = fd, .events = POLLIN };
	EXPECT_EQ(poll(&p, 1, 0), 1);
	EXPECT_EQ(p.revents, POLLHUP);
	pa_ring_map(&ring, fd, 1);
	p.revents = 0;
	EXPECT_EQ(poll(&p, 1, 0), 0);
	EXPECT_EQ(p.revents, 0);
	pa_ring_unmap(&ring);
	close(fd);
}
