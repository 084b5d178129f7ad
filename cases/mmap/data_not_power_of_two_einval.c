#include "perfabi.h"

#include <sys/mman.h>

/*
 * 1 + 3 pages: 3 data pages is not a power of two -> EINVAL. The same
 * event then maps 1 + 2 pages, and the control page describes exactly
 * that data area (data_offset and data_size, 4.1): one page in, two
 * pages long.
 */
PERFABI_CASE(
	.assertion = "a ring mapping of 1 + n pages where n is not a power of two (1 + 3) fails with EINVAL, while 1 + 2 pages maps, with data_offset one page and data_size two pages",
	.ref = "perf_event_open(2), MMAP layout: \"The mmap size should be 1+2^n pages\", data_offset/data_size (4.1); kernel/events/core.c perf_mmap(): nr_pages != 0 && !is_power_of_2(nr_pages) -> -EINVAL",
	.covers = "mmap.size mmap.data_offset",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_ERRNO((long)mmap(NULL, (size_t)psz * 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), EINVAL);
	pg = mmap(NULL, (size_t)psz * 3, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(pg != MAP_FAILED);
	if (pa_kernel_at_least("4.1")) {
		EXPECT_EQ(pg->data_offset, (uint64_t)psz);
		EXPECT_EQ(pg->data_size, 2 * (uint64_t)psz);
	}
	munmap(pg, (size_t)psz * 3);
	close(fd);
}
