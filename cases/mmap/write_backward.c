#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "attr.write_backward: the kernel writes records from the end of the ring towards its start, so data_head decreases from 0 (as a signed value it is minus the bytes written) and the newest record starts at data_head",
	.ref = "perf_event_open(2), write_backward (4.7): \"allow the ring buffer to be written backward\"; kernel/events/ring_buffer.c __perf_output_begin() backward case",
	.covers = "attr.write_backward",
	.min_kernel = "4.7",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	struct perf_event_header hdr;
	uint64_t head, count;
	size_t dsz = (size_t)psz * 8;
	unsigned char *data;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID;	/* 16-byte samples */
	attr.write_backward = 1;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	/* backward rings are overwrite rings: map read-only */
	pg = mmap(NULL, (size_t)psz + dsz, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_TRUE(pg != MAP_FAILED);
	data = (unsigned char *)pg + psz;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(10);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &count, 1);
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	EXPECT_LT((int64_t)head, 0);
	EXPECT_EQ((uint64_t)-(int64_t)head, count * 16);
	memcpy(&hdr, data + (head & (dsz - 1)), sizeof(hdr));
	EXPECT_EQ(hdr.type, (uint32_t)PERF_RECORD_SAMPLE);
	EXPECT_EQ(hdr.size, 16u);
}
