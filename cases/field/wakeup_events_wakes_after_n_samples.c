#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>

/*
 * wakeup_events = 32 on a page-fault sampler (period 1, PERF_SAMPLE_IP: 16
 * bytes a record) with one data page. The default byte watermark is half
 * the data area (>= 128 records), far above what the case writes, so only
 * the event count can wake the reader:
 *   - after 8 faults (plus a few incidental ones) poll() must not see POLLIN;
 *   - after 56 more (>= 64 samples) it must.
 * Fewer than 100 samples keeps under the per-tick throttle (max_sample_rate
 * / HZ, at least 100 with the default rate and HZ <= 1000).
 */
static struct pa_ring ring;

static short poll_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 ? p.revents : 0;
}

PERFABI_CASE(
	.assertion = "with wakeup_events = N, a reader is woken (POLLIN) once N samples are written, not before",
	.ref = "perf_event_open(2), wakeup_events: \"This union sets how many samples (wakeup_events) ... happen before an overflow notification happens\"; kernel/events/core.c perf_output_sample() wakeup_events",
	.covers = "attr.wakeup_events",
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
	attr.wakeup_events = 32;
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
