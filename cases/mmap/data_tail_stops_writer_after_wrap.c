#include "perfabi.h"

#include <sys/ioctl.h>

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

PERFABI_CASE(
	.assertion = "in a writable mapping the kernel's free space is measured from data_tail, across the wrap: after the reader consumed exactly 100 records (data_tail = 2400) of 24-byte samples in an 8192-byte ring, the kernel fills the ring to the last record that leaves at least one byte free, data_head = 24 * floor((2400 + 8192 - 1) / 24) = 10584 (past the wrap, 441 records), never past data_tail + 8192; the unread records are in write order, and after the reader catches up the next output is PERF_RECORD_LOST {id, count - 441}",
	.ref = "perf_event_open(2), MMAP layout: data_tail (\"When the mapping is PROT_WRITE ... the kernel will not over-write unread data\"); kernel/events/ring_buffer.c __perf_output_begin(): ring_buffer_has_space() = CIRC_SPACE(head, tail, size) >= size, else rb->lost++; the next output prepends PERF_RECORD_LOST {id, lost}",
	.covers = "mmap.data_tail mmap.data_head record.LOST",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const uint64_t rec = 24, size = 8192, consumed = 100;
	const struct perf_event_header *h;
	uint64_t id = 0, c0, c1, head, want, t, last = 0, n = 0, lost = 0, nlost = 0;
	struct pa_sample s;
	struct pa_ring r;
	int fd;

	if (size % (uint64_t)psz)
		pa_skip("page size %ld does not divide the 8192-byte ring", psz);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;	/* 24 bytes */
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, (unsigned)(size / (uint64_t)psz));
	pa_ring_prefault(&r);
	pa_touch_pages(1);

	/* 100+ samples, of which the reader consumes exactly 100 */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages((int)consumed);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &c0, 1);
	ASSERT_GE(c0, consumed);
	for (uint64_t i = 0; i < consumed; i++)
		ASSERT_TRUE(pa_ring_next(&r) != NULL);
	t = r.page->data_tail;
	ASSERT_EQ(t, consumed * rec);

	/* then far more than the ring holds */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(600);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &c1, 1);
	want = rec * ((t + size - 1) / rec);
	ASSERT_EQ(want, 10584u);
	head = pa_ring_head(&r);
	EXPECT_EQ(head, want);
	EXPECT_GT(c1, want / rec);			/* some were dropped */
	EXPECT_EQ(r.page->data_tail, t);
	/* the unread records, across the wrap, in write order */
	while (r.tail < head && (h = pa_ring_next(&r))) {
		ASSERT_TRUE(pa_sample_parse(&attr, h, &s));
		EXPECT_GE(s.time, last);
		last = s.time;
		n++;
	}
	EXPECT_EQ(n, want / rec - consumed);		/* 341 */

	/* caught up: one more fault, LOST {id, count - 441} first */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	h = pa_ring_next(&r);
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_LOST);
	EXPECT_EQ(h->size, (uint16_t)sizeof(struct lost_rec));
	if (h->type == PERF_RECORD_LOST) {
		EXPECT_EQ(((const struct lost_rec *)h)->id, id);
		EXPECT_EQ(((const struct lost_rec *)h)->lost, c1 - want / rec);
	}
	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_LOST) {
			nlost++;
			lost += ((const struct lost_rec *)h)->lost;
		}
	}
	EXPECT_EQ(nlost, 0u);
	EXPECT_EQ(lost, 0u);
}
