#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * wakeup_events = N = 32 on a page-fault sampler (period 1, PERF_SAMPLE_IP:
 * 16 bytes a record) with one data page: perf_output_sample() counts the
 * samples (rb->events) and at the N-th bumps rb->wakeup, so
 * perf_output_put_handle() sets the poll state. The byte watermark (half
 * the data area) is far above 32 records. So poll() must not report POLLIN
 * after exactly 31 samples and must after exactly 32: an edge, not a window.
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
#define N 32

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
	attr.wakeup_events = N;
	attr.disabled = 1;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	ASSERT_LT(N * rec, r.data_size / 2);	/* the byte watermark stays away */
	pa_touch_pages(1);
	(void)pa_poll_now(fd);
	(void)pa_ring_fill_to(&r, 0, rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	whole = pa_ring_fill_to(&r, (N - 1) * rec, rec);
	before = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, N * rec, rec);
	after = pa_poll_now(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_unmap(&r);
	close(fd);
	if (!whole) {
		pa_ring_fill_deviation(seen, len);
		return false;
	}
	pa_diag("revents after %d samples: %#x, after %d: %#x", N - 1, before, N, after);
	EXPECT_EQ(before, 0);
	EXPECT_EQ(after, POLLIN);
	return true;
}

PERFABI_CASE(
	.assertion = "with wakeup_events = N, poll() reports POLLIN exactly when the N-th sample is written: not after N-1 samples, yes after N (N = 32)",
	.ref = "perf_event_open(2), wakeup_events: \"This union sets how many samples (wakeup_events) ... happen before an overflow notification happens\"; "
	       "kernel/events/core.c perf_output_sample() (rb->events), ring_buffer.c perf_output_put_handle()",
	.covers = "attr.wakeup_events",
	.probe = pa_probe_self_perf,
) {
	pa_retry(3, attempt, NULL,
		 "incidental page faults between steps: the edge could not be isolated");
}
