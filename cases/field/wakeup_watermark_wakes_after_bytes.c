#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>

/*
 * watermark = 1, wakeup_watermark = 512 bytes on a page-fault sampler
 * (period 1, PERF_SAMPLE_IP: 16-byte records), one data page:
 *   - after 8 faults (a few incidental ones aside, <= 16 records = 256
 *     bytes) poll() must not see POLLIN;
 *   - after 56 more (>= 64 records = 1024 bytes) it must.
 * Fewer than 100 samples keeps under the per-tick throttle.
 */
static struct pa_ring ring;

static short poll_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 ? p.revents : 0;
}

PERFABI_CASE(
	.assertion = "with watermark set, a reader is woken (POLLIN) once more than wakeup_watermark bytes of records are written, not before",
	.ref = "perf_event_open(2), wakeup_events, wakeup_watermark: \"... or how many bytes (wakeup_watermark) happen before an overflow notification happens\"; kernel/events/ring_buffer.c perf_output_begin() watermark",
	.covers = "attr.wakeup_watermark attr.watermark",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long rate = pa_sysctl_long("kernel/perf_event_max_sample_rate");
	short before, after;
	int fd;

	if (rate < 64000)
		pa_skip("perf_event_max_sample_rate %ld: 64 samples in one tick could be throttled", rate);
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.watermark = 1;
	attr.wakeup_watermark = 512;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&ring, fd, 1);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	before = poll_now(fd);
	pa_touch_pages(56);
	after = poll_now(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_diag("%llu bytes of records written; POLLIN before %d, after %d",
		(unsigned long long)pa_ring_head(&ring), !!(before & POLLIN),
		!!(after & POLLIN));
	EXPECT_FALSE(before & POLLIN);
	EXPECT_TRUE(after & POLLIN);
	pa_ring_unmap(&ring);
	close(fd);
}
