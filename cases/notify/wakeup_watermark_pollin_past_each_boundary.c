#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * watermark = 1, wakeup_watermark = W bytes: __perf_output_begin() moves
 * rb->wakeup on by W when the new data_head is more than W past it
 * ("head - rb->wakeup > rb->watermark"), and perf_output_put_handle() then
 * sets the poll state. So the fd turns readable at the record that takes
 * the data past W, strictly, and again past 2W: with W = 10 records of 32
 * bytes (PERF_SAMPLE_IP | TID | TIME, the size computed from sample_type),
 * the 10th record (exactly W) does not wake, the 11th does; the 20th
 * (exactly 2W) does not, the 21st does.
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
#define RECS 10

static bool attempt(void *arg, char *seen, size_t len)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	uint64_t rec, w;
	short at[4];
	struct pa_ring r;
	bool whole;
	int fd;

	(void)arg;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	rec = pa_sample_size(&attr, NULL);
	ASSERT_EQ(rec, 32u);
	w = RECS * rec;
	attr.watermark = 1;
	attr.wakeup_watermark = (uint32_t)w;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	ASSERT_LT(3 * w, r.data_size);
	pa_touch_pages(1);
	(void)pa_poll_now(fd);
	(void)pa_ring_fill_to(&r, 0, rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	whole = pa_ring_fill_to(&r, w, rec);
	at[0] = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, w + rec, rec);
	at[1] = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, 2 * w, rec);
	at[2] = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, 2 * w + rec, rec);
	at[3] = pa_poll_now(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_unmap(&r);
	close(fd);
	if (!whole) {
		pa_ring_fill_deviation(seen, len);
		return false;
	}
	pa_diag("W = %llu: revents at %llu, %llu, %llu, %llu bytes: %#x %#x %#x %#x",
		(unsigned long long)w, (unsigned long long)w,
		(unsigned long long)(w + rec), (unsigned long long)(2 * w),
		(unsigned long long)(2 * w + rec), at[0], at[1], at[2], at[3]);
	EXPECT_EQ(at[0], 0);		/* exactly W bytes: not past it */
	EXPECT_EQ(at[1], POLLIN);	/* the record that passes W wakes */
	EXPECT_EQ(at[2], 0);		/* exactly 2W */
	EXPECT_EQ(at[3], POLLIN);	/* past 2W */
	return true;
}

PERFABI_CASE(
	.assertion = "with watermark set, poll() reports POLLIN at the record that takes the data past wakeup_watermark bytes, and again past twice that: "
		     "W = 320 (10 records of 32 bytes): not at 320 or 640 bytes, yes at 352 and 672",
	.ref = "perf_event_open(2), watermark: \"If set, have an overflow notification happen when we cross the wakeup_watermark boundary\"; "
	       "wakeup_watermark: \"... or bytes (wakeup_watermark) happen before an overflow notification happens\"; "
	       "kernel/events/ring_buffer.c __perf_output_begin() (head - rb->wakeup > rb->watermark), perf_output_put_handle()",
	.covers = "fd.poll attr.wakeup_watermark attr.watermark mmap.data_head",
	.probe = pa_probe_self_perf,
) {
	pa_retry(3, attempt, NULL,
		 "incidental page faults between steps: the edge could not be isolated");
}
