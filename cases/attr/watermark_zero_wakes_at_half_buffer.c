#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>

/*
 * With watermark set, the wakeup point is wakeup_watermark bytes; 0 there
 * leaves the kernel's default of half the data area (ring_buffer_init()).
 * Samples here are 16 bytes (header + IP) in a one-page (4096-byte) area:
 * 64 page faults (about 1 KiB of samples) do not make the fd readable;
 * 256 more (beyond 2 KiB) do.
 */
PERFABI_CASE(
	.assertion = "attr.watermark with wakeup_watermark 0: poll() reports the ring readable only once half of the data area is filled (not after ~1 KiB of a 4 KiB area, yes after > 2 KiB)",
	.ref = "perf_event_open(2), watermark: \"If set, have an overflow notification happen when we cross the wakeup_watermark boundary\"; kernel/events/ring_buffer.c ring_buffer_init(): \"if (!rb->watermark) rb->watermark = max_size / 2\"",
	.covers = "attr.watermark attr.wakeup_watermark",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pollfd p;
	int fd;

	if (sysconf(_SC_PAGESIZE) != 4096)
		pa_skip("page size %ld: the sizes here assume 4096", sysconf(_SC_PAGESIZE));
	attr.sample_type = PERF_SAMPLE_IP;
	attr.watermark = 1;
	attr.wakeup_watermark = 0;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	p.fd = fd;
	p.events = POLLIN;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(64);
	p.revents = 0;
	EXPECT_EQ(poll(&p, 1, 0), 0);
	pa_touch_pages(256);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	p.revents = 0;
	EXPECT_EQ(poll(&p, 1, 0), 1);
	EXPECT_TRUE(p.revents & POLLIN);
	pa_ring_unmap(&r);
	close(fd);
}
