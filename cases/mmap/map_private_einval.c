#include "perfabi.h"

#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "the ring must be mapped MAP_SHARED: a MAP_PRIVATE mapping fails with EINVAL",
	.ref = "kernel/events/core.c perf_mmap(): if (!(vma->vm_flags & VM_SHARED)) return -EINVAL; perf_event_open(2) MMAP layout",
	.covers = "mmap.MAP_SHARED",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	errno = 0;
	EXPECT_TRUE(mmap(NULL, (size_t)psz * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0) == MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
}
