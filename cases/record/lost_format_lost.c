#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * A period-1 page-fault sampler whose one-page ring is never read fills it;
 * every further sample fails in perf_output_begin(), which counts it both in
 * rb->lost (reported by the next PERF_RECORD_LOST once there is room) and in
 * event->lost_samples (read() with PERF_FORMAT_LOST, 6.0). One episode of
 * loss: the LOST record's count is every sample dropped, the same number
 * read() gives before and after it, and the samples written plus those
 * lost are the event's count (one overflow per fault).
 */
struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

PERFABI_CASE(
	.assertion = "PERF_RECORD_LOST {id, lost}: lost is the number of samples dropped while the ring was full, the same as the lost value read() returns with PERF_FORMAT_LOST, id is the event's id, and samples written plus lost equal the count",
	.ref = "perf_event_open(2), PERF_RECORD_LOST: \"id: unique event ID for the samples that were lost; lost: the number of events that were lost\"; read_format PERF_FORMAT_LOST (6.0); kernel/events/ring_buffer.c perf_output_begin()",
	.covers = "record.LOST read_format.LOST",
	.min_kernel = "6.0",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	struct pa_ring r;
	uint64_t id = 0, full[3], end[3], rec_lost = 0;
	int fd, samples = 0, nlost = 0;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;	/* 24-byte samples */
	attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;	/* value, id, lost */
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 1);
	pa_touch_pages(1);
	pa_read_u64(fd, full, 3);
	EXPECT_EQ(full[2], 0u);			/* nothing lost yet */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(400);			/* 400 * 24 bytes > one page */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, full, 3);
	EXPECT_EQ(full[1], id);
	ASSERT_GT(full[2], 0u);
	/* the full ring: samples only, no LOST yet (there was no room) */
	while ((h = pa_ring_next(&r))) {
		EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_SAMPLE);
		samples++;
	}
	EXPECT_EQ((uint64_t)samples + full[2], full[0]);
	/* room made: the next sample brings the LOST record first */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, end, 3);
	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			samples++;
			continue;
		}
		ASSERT_EQ(h->type, (uint32_t)PERF_RECORD_LOST);
		ASSERT_EQ(h->size, sizeof(struct lost_rec));
		nlost++;
		EXPECT_EQ(((const struct lost_rec *)h)->id, id);
		rec_lost = ((const struct lost_rec *)h)->lost;
	}
	pa_diag("count %llu, samples %d, lost %llu (read) %llu (record)",
		(unsigned long long)end[0], samples,
		(unsigned long long)end[2], (unsigned long long)rec_lost);
	EXPECT_EQ(nlost, 1);
	EXPECT_EQ(rec_lost, full[2]);
	EXPECT_EQ(end[2], full[2]);
	EXPECT_EQ((uint64_t)samples + end[2], end[0]);
	EXPECT_GT(end[0], full[0]);
	close(fd);
}
