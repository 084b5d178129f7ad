#include "perfabi.h"

#include <sys/ioctl.h>

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

/* The record header at ring position pos (data_head-style, may be "negative"). */
static struct perf_event_header hdr_at(const struct pa_ring *r, uint64_t pos)
{
	struct perf_event_header h;

	memcpy(&h, r->data + (pos & (r->data_size - 1)), sizeof(h));
	return h;
}

PERFABI_CASE(
	.assertion = "a write_backward ring mapped PROT_WRITE is not an overwrite ring: the kernel writes downwards from 0 only while CIRC_SPACE(data_tail, data_head) leaves room, so with data_tail 0 data_head stops at -4080 (255 16-byte samples in a 4096-byte ring), those records stay intact, further samples are dropped, and once the reader sets data_tail to data_head the next output is a PERF_RECORD_LOST {id, dropped count} directly below the old data_head, followed by the sample",
	.ref = "perf_event_open(2), write_backward (4.7) and MMAP layout data_tail (\"When the mapping is PROT_WRITE ... the kernel will not over-write unread data\"); kernel/events/ring_buffer.c rb_alloc() (overwrite = !RING_BUFFER_WRITABLE), __perf_output_begin(): ring_buffer_has_space(head, tail, size, backward) = CIRC_SPACE(tail, head, size) >= size, head -= size, LOST {id, lost} written first in the reserved space",
	.covers = "attr.write_backward mmap.data_tail mmap.data_head record.LOST",
	.min_kernel = "4.7",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_header h;
	struct lost_rec l;
	uint64_t id = 0, c0, c1, head, head2, pos, ok = 0, n2;
	struct pa_ring r;
	int fd;

	if (psz != 4096)
		pa_skip("page size %ld: the exact numbers below are for 4096", psz);
	attr.sample_type = PERF_SAMPLE_IP;		/* 16-byte samples */
	attr.write_backward = 1;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 1);				/* PROT_READ | PROT_WRITE */
	pa_ring_prefault(&r);
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(300);				/* 300 faults > 255 slots */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &c0, 1);
	ASSERT_GE(c0, 300u);
	head = pa_ring_head(&r);
	EXPECT_EQ(head, (uint64_t)-4080);
	EXPECT_EQ(r.page->data_tail, 0u);
	/* newest at data_head, oldest just below 0: 255 intact samples */
	for (pos = head; pos != 0; pos += 16) {
		h = hdr_at(&r, pos);
		if (h.type == PERF_RECORD_SAMPLE && h.size == 16 && h.misc == PERF_RECORD_MISC_USER)
			ok++;
		if (h.size != 16)
			break;
	}
	EXPECT_EQ(ok, 255u);

	/* consumed everything: tail = head makes the room */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&r.page->data_tail, head, __ATOMIC_RELEASE);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &c1, 1);
	n2 = c1 - c0;					/* samples of this step */
	ASSERT_GE(n2, 1u);
	head2 = pa_ring_head(&r);
	/* LOST (24) + first sample (16) right below -4080, then the rest */
	EXPECT_EQ(head2, (uint64_t)-4080 - 24 - 16 * n2);
	memcpy(&l, r.data + ((uint64_t)-4120 & 4095), sizeof(l));
	EXPECT_EQ(l.h.type, (uint32_t)PERF_RECORD_LOST);
	EXPECT_EQ(l.h.size, (uint16_t)sizeof(l));
	EXPECT_EQ(l.id, id);
	EXPECT_EQ(l.lost, c0 - 255);
	h = hdr_at(&r, (uint64_t)-4096);
	EXPECT_EQ(h.type, (uint32_t)PERF_RECORD_SAMPLE);
	EXPECT_EQ(h.size, 16u);
	for (pos = head2; pos != (uint64_t)-4120; pos += 16) {
		h = hdr_at(&r, pos);
		EXPECT_EQ(h.type, (uint32_t)PERF_RECORD_SAMPLE);
		if (h.size != 16)
			break;
	}
	EXPECT_EQ(r.page->data_tail, head);		/* the kernel never writes it */
}
