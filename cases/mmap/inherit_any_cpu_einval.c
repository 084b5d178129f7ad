#include "perfabi.h"

#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "an inherited per-task event that is not bound to a CPU (cpu == -1, inherit) cannot be mmapped: EINVAL; bound to a CPU it can",
	.ref = "kernel/events/core.c perf_mmap(): \"Don't allow mmap() of inherited per-task counters\" (event->cpu == -1 && event->attr.inherit -> -EINVAL)",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	int fd, fd0;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.inherit = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	errno = 0;
	EXPECT_TRUE(mmap(NULL, (size_t)psz * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) == MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	fd0 = ASSERT_OPEN(&attr, 0, 0, -1, 0);
	EXPECT_TRUE(mmap(NULL, (size_t)psz * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd0, 0) != MAP_FAILED);
}
