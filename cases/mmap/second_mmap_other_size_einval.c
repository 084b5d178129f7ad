#include "perfabi.h"

#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "once an event's ring is mapped, another mapping of it must have the same size: the same size succeeds (shares the ring), a different size fails with EINVAL",
	.ref = "kernel/events/core.c perf_mmap(): an existing rb with a different nr_pages -> -EINVAL; perf_event_open(2) MMAP layout",
	.covers = "mmap.remap",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *a, *b;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	a = mmap(NULL, (size_t)psz * 5, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(a != MAP_FAILED);
	b = mmap(NULL, (size_t)psz * 5, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(b != MAP_FAILED);
	pa_touch_pages(2);
	EXPECT_NE(b->data_head, 0u);
	EXPECT_EQ(b->data_head, a->data_head);		/* one ring */
	errno = 0;
	EXPECT_TRUE(mmap(NULL, (size_t)psz * 3, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
}
