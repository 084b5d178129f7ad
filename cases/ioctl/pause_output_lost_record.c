#include "perfabi.h"

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

PERFABI_CASE(
	.assertion = "samples dropped while the ring is paused with PERF_EVENT_IOC_PAUSE_OUTPUT are counted as lost: after PAUSE_OUTPUT 0 the next record written is preceded by one PERF_RECORD_LOST {id, lost} with the event's id and lost = the number of samples dropped",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (since Linux 4.7), PERF_RECORD_LOST {id, lost}; kernel/events/ring_buffer.c __perf_output_begin(): rb->paused -> rb->lost++, and the next output puts a PERF_RECORD_LOST with local_xchg(&rb->lost, 0) first",
	.covers = "ioctl.PAUSE_OUTPUT record.LOST record.SAMPLE",
	.min_kernel = "4.7",
	.probe = pa_probe_self_perf,
) {
	/* period 1: every page fault is a sample */
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	const struct lost_rec *l;
	struct pa_ring ring;
	uint64_t id, rec, head;
	int fd, n;

	a.sample_type = PERF_SAMPLE_IP;
	a.disabled = 1;
	rec = pa_sample_size(&a, NULL);
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&ring, fd, 8);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack and the vDSO): the page faults counted are
	 * then exactly the pages touched. The data pages are read only once
	 * the event is disabled. */
	pa_touch_pages(1);
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_ring_head(&ring), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	head = pa_ring_head(&ring);
	EXPECT_EQ(head, 4 * rec);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	pa_touch_pages(10);			/* 10 samples dropped */
	EXPECT_EQ(pa_ring_head(&ring), head);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	EXPECT_EQ(pa_ring_head(&ring), head);	/* nothing written yet */
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 15);
	EXPECT_EQ(pa_ring_head(&ring), head + sizeof(struct lost_rec) + rec);

	for (n = 0; n < 4; n++) {
		h = pa_ring_next(&ring);
		ASSERT_TRUE(h != NULL);
		EXPECT_EQ(h->type, PERF_RECORD_SAMPLE);
	}
	h = pa_ring_next(&ring);
	ASSERT_TRUE(h != NULL);
	ASSERT_EQ(h->type, PERF_RECORD_LOST);
	l = (const struct lost_rec *)h;
	EXPECT_EQ(h->size, sizeof(*l));
	EXPECT_EQ(l->id, id);
	EXPECT_EQ(l->lost, 10);
	h = pa_ring_next(&ring);
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(h->type, PERF_RECORD_SAMPLE);
	EXPECT_TRUE(pa_ring_next(&ring) == NULL);
	pa_ring_unmap(&ring);
	close(fd);
}
