#include "perfabi.h"

#include <sys/ioctl.h>

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

PERFABI_CASE(
	.assertion = "in a writable mapping the kernel does not write past data_tail: with the reader not advancing data_tail (0) data_head stops at the last record that leaves at least one byte free (16-byte samples in one 4096-byte page: 255 samples, data_head 4080), the unread records stay intact, every further sample is dropped, and once the reader advances data_tail the next output starts with PERF_RECORD_LOST whose lost is exactly the dropped count (count - 255)",
	.ref = "perf_event_open(2), MMAP layout: \"data_tail: When the mapping is PROT_WRITE, the data_tail value should be written by userspace to reflect the last read data. In this case the kernel will not over-write unread data.\"; kernel/events/ring_buffer.c __perf_output_begin(): ring_buffer_has_space() = CIRC_SPACE(head, tail, size) >= size, else rb->lost++; the next output prepends PERF_RECORD_LOST {id, lost}",
	.covers = "mmap.data_tail mmap.data_head record.LOST",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	const struct lost_rec *l;
	uint64_t id = 0, count, head, ok = 0, nlost = 0, lost = 0;
	struct pa_ring r;
	int fd;

	if (psz != 4096)
		pa_skip("page size %ld: the exact numbers below are for 4096", psz);
	attr.sample_type = PERF_SAMPLE_IP;		/* 16-byte samples */
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(300);				/* 300 faults > 255 slots */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &count, 1);
	ASSERT_GE(count, 300u);
	head = pa_ring_head(&r);
	EXPECT_EQ(head, 4080u);
	EXPECT_EQ(r.page->data_tail, 0u);
	/* the unread records are the first 255 samples, none overwritten */
	for (uint64_t off = 0; off < head; off += 16) {
		const struct perf_event_header *e = (const void *)(r.data + off);

		if (e->type == PERF_RECORD_SAMPLE && e->size == 16 && e->misc == PERF_RECORD_MISC_USER)
			ok++;
	}
	EXPECT_EQ(ok, 255u);
	/* make room, then one more fault: LOST {id, count - 255} first */
	while (pa_ring_next(&r))
		;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	h = pa_ring_next(&r);
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_LOST);
	EXPECT_EQ(h->size, (uint16_t)sizeof(struct lost_rec));
	if (h->type == PERF_RECORD_LOST) {
		l = (const struct lost_rec *)h;
		EXPECT_EQ(l->id, id);
		EXPECT_EQ(l->lost, count - 255);
	}
	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_LOST) {
			nlost++;
			lost += ((const struct lost_rec *)h)->lost;
		}
	}
	EXPECT_EQ(nlost, 0u);				/* one LOST for the whole run */
	EXPECT_EQ(lost, 0u);
}
