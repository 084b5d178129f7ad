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
 * other than one record (an incidental fault) makes the attempt start over.
 */
#define N 32

static short poll0(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n = poll(&p, 1, 0);

	if (n < 0) {
		pa_fail("poll: %s", pa_errno_name(errno));
		pa_abort();
	}
	return n ? p.revents : 0;
}

static void prefault_ring(struct pa_ring *r)
{
	volatile unsigned char *d = r->data;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t off = 0; off < r->data_size; off += psz)
		(void)d[off];
	(void)pa_ring_head(r);
}

/* One fresh page at a time until data_head is `want`: false when a step
 * wrote other than one `rec`-byte record. */
static bool fill_to(struct pa_ring *r, uint64_t want, uint64_t rec)
{
	uint64_t h = pa_ring_head(r), n;

	while (h < want) {
		pa_touch_pages(1);
		n = pa_ring_head(r);
		if (n == h) {
			pa_fail("a page fault wrote no sample (data_head stays %llu)",
				(unsigned long long)h);
			pa_abort();
		}
		if (n != h + rec)
			return false;
		h = n;
	}
	return h == want;
}

static bool attempt(void)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	short before, after;
	struct pa_ring r;
	uint64_t rec;
	bool whole;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;	/* 16-byte records */
	attr.wakeup_events = N;
	attr.disabled = 1;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	prefault_ring(&r);
	ASSERT_LT(N * rec, r.data_size / 2);	/* the byte watermark stays away */
	pa_touch_pages(1);
	(void)poll0(fd);
	(void)fill_to(&r, 0, rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	whole = fill_to(&r, (N - 1) * rec, rec);
	before = poll0(fd);
	whole = whole && fill_to(&r, N * rec, rec);
	after = poll0(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_unmap(&r);
	close(fd);
	if (!whole)
		return false;
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
	for (int i = 1; i <= 3; i++) {
		if (attempt())
			return;
		pa_diag("attempt %d: an incidental page fault added a sample between steps; again", i);
	}
	pa_skip("every attempt took incidental page faults between steps: the edge could not be isolated");
}
