#include "perfabi.h"

#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "a ring mapping of 1 + n pages where n is not a power of two (1 + 3) fails with EINVAL",
	.ref = "perf_event_open(2), MMAP layout: \"The mmap size should be 1+2^n pages\"; kernel/events/core.c perf_mmap(): nr_pages != 0 && !is_power_of_2(nr_pages) -> -EINVAL",
	.covers = "mmap.size",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_TRUE(mmap(NULL, (size_t)psz * 4, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED && errno == EINVAL);
	errno = 0;
	EXPECT_TRUE(mmap(NULL, (size_t)psz * 3, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) != MAP_FAILED);
}
