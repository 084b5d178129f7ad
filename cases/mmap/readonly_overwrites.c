#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "a ring mapped without PROT_WRITE is an overwrite ring: the kernel ignores data_tail, keeps writing past a full buffer (data_head grows beyond data_size) and reports no loss",
	.ref = "perf_event_open(2), MMAP layout / data_tail: \"if the mapping is PROT_WRITE, the data_tail value should be written by user space ... the kernel will not over-write unread data\"; kernel/events/ring_buffer.c (rb->overwrite = !(flags & RING_BUFFER_WRITABLE))",
	.covers = "record.LOST mmap.overwrite mmap.data_tail",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	uint64_t head, count;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID;	/* 16-byte samples */
	attr.disabled = 1;
	attr.read_format = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pg = mmap(NULL, (size_t)psz * 2, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_TRUE(pg != MAP_FAILED);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(2 * (int)(psz / 16));	/* twice the ring */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &count, 1);
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	EXPECT_GT(head, (uint64_t)psz);
	EXPECT_EQ(head, count * 16);	/* every sample written, none lost */
}
