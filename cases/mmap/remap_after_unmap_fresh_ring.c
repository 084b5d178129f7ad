#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "when the last mapping of an event's ring is unmapped the ring is freed: a new mapping of the same fd succeeds, may have another size, and starts a fresh ring (data_head 0, data_tail 0) that then receives the event's records",
	.ref = "perf_event_open(2), MMAP layout; kernel/events/core.c perf_mmap_close(): the last unmap detaches and frees event->rb; perf_mmap(): with no rb, any valid size allocates a new one",
	.covers = "mmap.remap mmap.data_head mmap.size",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	uint64_t head, sum = 0;
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_GT(pa_ring_head(&r), 0u);
	pa_ring_unmap(&r);

	/* another size: would be EINVAL if the old ring were still there */
	pa_ring_map(&r, fd, 4);
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 4);
	EXPECT_EQ(pa_ring_head(&r), 0u);
	EXPECT_EQ(r.page->data_tail, 0u);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	head = pa_ring_head(&r);
	EXPECT_GE(head, 4u * 24u);			/* >= 4 samples of 24 bytes */
	while ((h = pa_ring_next(&r))) {
		EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_SAMPLE);
		sum += h->size;
	}
	EXPECT_EQ(sum, head);
}
