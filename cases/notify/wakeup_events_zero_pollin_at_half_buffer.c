#include "perfabi.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * watermark clear and wakeup_events = 0: no sample count wakes the reader
 * (perf_output_sample() counts only when wakeup_events is set), and the
 * ring's byte watermark is the default, half of the data area
 * (ring_buffer_init(): "if (!rb->watermark) rb->watermark = max_size / 2").
 * __perf_output_begin() wakes when the new data_head is more than that past
 * rb->wakeup, so the fd turns readable at the record that takes the data
 * past half the area: with 16-byte records (PERF_SAMPLE_IP) and one data
 * page of P bytes, P/32 records do not wake, the next one does.
 *
 * Finding: perf_event_open(2) says that kernels since 3.0 "treat 0 the same
 * as 1" for wakeup_events; for poll() they do not (for signals every
 * overflow signals anyway: notify/signal_every_overflow_wakeup_events_zero).
 *
 * A page-fault sampler with period 1 writes one record per fault; the case
 * touches one fresh page at a time and reads data_head after each, so it
 * knows the exact byte count when it polls. What the measured steps execute
 * runs once before ENABLE; a step that wrote other than one record (an
 * incidental fault) makes the attempt start over;
 * the same step going wrong the same way in all 3 attempts is the
 * kernel's doing, a FAIL (pa_retry()).
 */
static bool attempt(void *arg, char *seen, size_t len)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	uint64_t rec, half;
	short at[3];
	struct pa_ring r;
	bool whole;
	int fd;

	(void)arg;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 0;
	attr.watermark = 0;
	attr.disabled = 1;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	half = r.data_size / 2;
	ASSERT_EQ(half % rec, 0u);
	pa_touch_pages(1);
	(void)pa_poll_now(fd);
	(void)pa_ring_fill_to(&r, 0, rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	whole = pa_ring_fill_to(&r, rec, rec);
	at[0] = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, half, rec);
	at[1] = pa_poll_now(fd);
	whole = whole && pa_ring_fill_to(&r, half + rec, rec);
	at[2] = pa_poll_now(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_ring_unmap(&r);
	close(fd);
	if (!whole) {
		pa_ring_fill_deviation(seen, len);
		return false;
	}
	pa_diag("data area %zu bytes: revents after 1 record: %#x, at %llu bytes: %#x, at %llu: %#x",
		r.data_size, at[0], (unsigned long long)half, at[1],
		(unsigned long long)(half + rec), at[2]);
	EXPECT_EQ(at[0], 0);		/* one sample does not wake ("0 as 1") */
	EXPECT_EQ(at[1], 0);		/* exactly half: not past it */
	EXPECT_EQ(at[2], POLLIN);	/* the record that passes half wakes */
	return true;
}

PERFABI_CASE(
	.assertion = "with watermark clear and wakeup_events = 0, a sample does not make the fd readable; poll() reports POLLIN at the record "
		     "that takes the data past half of the data area (one 4 KiB page: not at 2048 bytes, yes at 2064)",
	.ref = "perf_event_open(2), Overflow handling: \"Normally, a notification is generated for every page filled\" and wakeup_events "
	       "(\"more recent kernels treat 0 the same as 1\": not so for poll); kernel/events/ring_buffer.c ring_buffer_init() "
	       "(rb->watermark = max_size / 2), __perf_output_begin(); core.c perf_output_sample() counts only when wakeup_events is set",
	.covers = "fd.poll attr.wakeup_events attr.watermark mmap.data_head",
	.probe = pa_probe_self_perf,
) {
	pa_retry(3, attempt, NULL,
		 "incidental page faults between steps: the edge could not be isolated");
}
