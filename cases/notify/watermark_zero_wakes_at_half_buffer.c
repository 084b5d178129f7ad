#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * With watermark set, the wakeup point is wakeup_watermark bytes; 0 there
 * leaves the kernel's default of half the data area (ring_buffer_init():
 * "if (!rb->watermark) rb->watermark = max_size / 2"), and
 * __perf_output_begin() wakes when the new data_head is more than that.
 * With 16-byte records (PERF_SAMPLE_IP) in one data page of P bytes,
 * P/2 bytes of records (2048 with 4 KiB pages) do not make the fd readable,
 * the next record does: an edge, not a window.
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
	attr.wakeup_watermark = 0;
	attr.disabled = 1;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	ASSERT_EQ((r.data_size / 2) % rec, 0u);
	pa_touch_pages(1);
	(void)pa_poll_now(fd);
	(void)pa_ring_fill_to(&r, 0, rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	whole = pa_ring_fill_to(&r, r.data_size / 2, rec);
	before = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, r.data_size / 2 + rec, rec);
	after = pa_poll_now(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_unmap(&r);
	close(fd);
	if (!whole) {
		pa_ring_fill_deviation(seen, len);
		return false;
	}
	pa_diag("data area %zu bytes: revents at %zu bytes: %#x, at %zu: %#x", r.data_size,
		r.data_size / 2, before, r.data_size / 2 + (size_t)rec, after);
	EXPECT_EQ(before, 0);
	EXPECT_EQ(after, POLLIN);
	return true;
}

PERFABI_CASE(
	.assertion = "attr.watermark with wakeup_watermark 0: poll() reports the ring readable when a record takes the data past half of the data area: "
		     "not at exactly half (2048 bytes of a 4 KiB area), yes one record later (2064)",
	.ref = "perf_event_open(2), watermark: \"If set, have an overflow notification happen when we cross the wakeup_watermark boundary\"; "
	       "kernel/events/ring_buffer.c ring_buffer_init(): \"if (!rb->watermark) rb->watermark = max_size / 2\", __perf_output_begin()",
	.covers = "attr.watermark attr.wakeup_watermark",
	.probe = pa_probe_self_perf,
) {
	pa_retry(3, attempt, NULL,
		 "incidental page faults between steps: the edge could not be isolated");
}
