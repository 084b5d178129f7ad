#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * wakeup_events = N counts samples in the ring (perf_output_sample():
 * rb->events; at N it takes N off and bumps rb->wakeup, and
 * perf_output_put_handle() then sets the poll state). So the fd turns
 * readable exactly at the N-th sample, and again at the 2N-th: an edge, not
 * a window. The byte watermark (half of the one data page) stays far away.
 *
 * A page-fault sampler with period 1 and PERF_SAMPLE_IP writes one 16-byte
 * record per fault; the case touches one fresh page at a time and reads
 * data_head after each, so it knows the exact number of samples when it
 * polls. poll() returns the state the writer set (perf_poll(): atomic_xchg
 * of rb->poll), no irq_work involved, so poll(0) right after the fault is
 * exact. Everything the measured steps execute runs once before ENABLE so
 * that its own faults are taken then; a step that still wrote other than
 * one record (an incidental fault) makes the attempt start over;
 * the same step going wrong the same way in all 3 attempts is the
 * kernel's doing, a FAIL (pa_retry()).
 */
#define N 16

static bool attempt(void *arg, char *seen, size_t len)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	uint64_t rec;
	short at[4];
	struct pa_ring r;
	bool whole;
	int fd;

	(void)arg;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = N;
	attr.disabled = 1;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	/* the half-buffer watermark must stay out of reach */
	ASSERT_LT(2 * N * rec, r.data_size / 2);
	pa_touch_pages(1);
	(void)pa_poll_now(fd);
	(void)pa_ring_fill_to(&r, 0, rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	whole = pa_ring_fill_to(&r, (N - 1) * rec, rec);
	at[0] = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, N * rec, rec);
	at[1] = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, (2 * N - 1) * rec, rec);
	at[2] = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, 2 * N * rec, rec);
	at[3] = pa_poll_now(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_unmap(&r);
	close(fd);
	if (!whole) {
		pa_ring_fill_deviation(seen, len);
		return false;
	}
	pa_diag("revents after %d, %d, %d, %d samples: %#x %#x %#x %#x",
		N - 1, N, 2 * N - 1, 2 * N, at[0], at[1], at[2], at[3]);
	EXPECT_EQ(at[0], 0);		/* N-1 samples: not readable */
	EXPECT_EQ(at[1], POLLIN);	/* the N-th sample wakes */
	EXPECT_EQ(at[2], 0);		/* 2N-1: not readable again */
	EXPECT_EQ(at[3], POLLIN);	/* the 2N-th sample wakes */
	return true;
}

PERFABI_CASE(
	.assertion = "with wakeup_events = N (watermark clear) poll() reports POLLIN exactly at the N-th sample and again at the 2N-th: "
		     "not after N-1 or 2N-1 samples (N = 16, one data page)",
	.ref = "perf_event_open(2), wakeup_events: \"This union sets how many samples (wakeup_events) ... happen before an overflow notification happens\"; "
	       "Overflow handling: \"set a wakeup_events ... value that will trigger if a certain number of samples ... have been written to the mmap ring buffer\"; "
	       "kernel/events/core.c perf_output_sample() (rb->events), ring_buffer.c perf_output_put_handle()",
	.covers = "fd.poll attr.wakeup_events mmap.data_head",
	.probe = pa_probe_self_perf,
) {
	pa_retry(3, attempt, NULL,
		 "incidental page faults between steps: the edge could not be isolated");
}
