#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * watermark = 1, wakeup_watermark = W = 512 bytes on a page-fault sampler
 * (period 1, PERF_SAMPLE_IP: 16-byte records), one data page:
 * __perf_output_begin() wakes when the new data_head is more than W past
 * rb->wakeup ("head - rb->wakeup > rb->watermark"). So poll() must not
 * report POLLIN with exactly 32 records (512 bytes, not past W) and must
 * with 33 (528 bytes): an edge, not a window.
 *
 * A page-fault sampler with period 1 writes one record per fault; the case
 * touches one fresh page at a time and reads data_head after each, so it
 * knows the exact byte count when it polls (poll() returns the state the
 * writer set: perf_poll() xchg of rb->poll, no irq_work involved). What
 * the measured steps execute runs once before ENABLE; a step that wrote
 * other than one record (an incidental fault) makes the attempt start over;
 * the same step going wrong the same way in all 3 attempts is the
 * kernel's doing, a FAIL (pa_retry()).
 */
#define W 512

static bool attempt(void *arg, char *seen, size_t len)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	short before, after;
	struct pa_ring r;
	uint64_t rec;
	bool whole;
	int fd;

	(void)arg;
	attr.sample_type = PERF_SAMPLE_IP;	/* 16-byte records */
	attr.watermark = 1;
	attr.wakeup_watermark = W;
	attr.disabled = 1;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	ASSERT_EQ(W % rec, 0u);
	ASSERT_LT(W + rec, r.data_size);
	pa_touch_pages(1);
	(void)pa_poll_now(fd);
	(void)pa_ring_fill_to(&r, 0, rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	whole = pa_ring_fill_to(&r, W, rec);
	before = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, W + rec, rec);
	after = pa_poll_now(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_unmap(&r);
	close(fd);
	if (!whole) {
		pa_ring_fill_deviation(seen, len);
		return false;
	}
	pa_diag("revents at %d bytes: %#x, at %llu: %#x", W, before,
		(unsigned long long)(W + rec), after);
	EXPECT_EQ(before, 0);
	EXPECT_EQ(after, POLLIN);
	return true;
}

PERFABI_CASE(
	.assertion = "with watermark set, poll() reports POLLIN when a record takes the data past wakeup_watermark bytes: "
		     "not at exactly 512 bytes (32 records), yes at 528 (33)",
	.ref = "perf_event_open(2), wakeup_events, wakeup_watermark: \"... or how many bytes (wakeup_watermark) happen before an overflow notification happens\"; "
	       "kernel/events/ring_buffer.c __perf_output_begin() (head - rb->wakeup > rb->watermark)",
	.covers = "attr.wakeup_watermark attr.watermark",
	.probe = pa_probe_self_perf,
) {
	pa_retry(3, attempt, NULL,
		 "incidental page faults between steps: the edge could not be isolated");
}
