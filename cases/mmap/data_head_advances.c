#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "data_head counts the bytes the kernel wrote: it starts at 0, stays a multiple of 8, and equals the sum of the sizes of the records between 0 and it",
	.ref = "perf_event_open(2), MMAP layout: \"data_head: This points to the head of the data section. The value continuously increases, it does not wrap\"",
	.covers = "record.SAMPLE mmap.data_head",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	struct pa_ring r;
	uint64_t sum = 0, head;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	EXPECT_EQ(pa_ring_head(&r), 0u);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	head = pa_ring_head(&r);
	EXPECT_GT(head, 0u);
	EXPECT_EQ(head % 8, 0u);
	while ((h = pa_ring_next(&r)))
		sum += h->size;
	EXPECT_EQ(sum, head);
	EXPECT_EQ(r.page->data_tail, head);
}
