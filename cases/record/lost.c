#include "perfabi.h"

#include <sys/ioctl.h>

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

/* Consume the ring, counting samples and LOST records. */
static void drain(struct pa_ring *r, uint64_t id, int *samples, int *nlost, uint64_t *lost)
{
	const struct perf_event_header *h;

	while ((h = pa_ring_next(r))) {
		if (h->type == PERF_RECORD_SAMPLE)
			(*samples)++;
		if (h->type != PERF_RECORD_LOST)
			continue;
		(*nlost)++;
		EXPECT_EQ(h->size, sizeof(struct lost_rec));
		EXPECT_EQ(((const struct lost_rec *)h)->id, id);
		*lost += ((const struct lost_rec *)h)->lost;
	}
}

PERFABI_CASE(
	.assertion = "records that do not fit a full (writable, not consumed) ring are dropped and reported, once room is made, by PERF_RECORD_LOST {id, lost} with the event's id and lost > 0; samples written plus lost account for every sample",
	.ref = "perf_event_open(2), PERF_RECORD_LOST: \"This record indicates when events are lost\" {id, lost}; kernel/events/ring_buffer.c perf_output_begin() (lost_events)",
	.covers = "record.LOST",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	uint64_t id = 0, lost = 0, count;
	int fd, samples = 0, nlost = 0;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;	/* 24-byte samples */
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 1);
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(400);			/* 400 * 24 bytes > one page */
	/* make room: consume everything, then one more sample brings the LOST */
	drain(&r, id, &samples, &nlost, &lost);
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &count, 1);
	drain(&r, id, &samples, &nlost, &lost);
	EXPECT_EQ(nlost, 1);
	EXPECT_GT(lost, 0u);
	EXPECT_EQ((uint64_t)samples + lost, count);
}
