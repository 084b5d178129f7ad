#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

/* "perf/core: Prevent VMA split of buffer mappings" (b024d7b56c77, 6.17,
 * CVE-2025-38563) went to the stable series; the sublevels below are ones
 * it is known to be in (abi-timeline.md). Elsewhere the version cannot
 * tell, and the old behaviour (a split, later unmaps of a half-ring) is
 * what the fix removed. */
PERFABI_CASE(
	.assertion = "a ring mapping cannot be split: munmap of part of it (its last data page, or the control page) fails with EINVAL and leaves the ring mapped and working; munmap of the whole mapping succeeds",
	.ref = "kernel/events/core.c perf_mmap_vmops.may_split = perf_mmap_may_split() -> -EINVAL (\"perf/core: Prevent VMA split of buffer mappings\", 6.17, in 6.1.158+ and 6.12.63+); munmap(2) EINVAL",
	.fix = { .commit = "b024d7b56c77", .subject = "perf/core: Prevent VMA split of buffer mappings", .release = "6.17", .cve = "CVE-2025-38563", .stable = "6.12.63 6.1.158" },
	.covers = "mmap.size mmap.data_head errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	unsigned char *p;
	int fd;

	if (pa_since_vma_split_refused() != 1)
		pa_skip("kernel %d.%d.%d: the refusal to split a ring mapping (b024d7b56c77) is not in this kernel or not known to be",
			pa_kernel().major, pa_kernel().minor, pa_kernel().patch);
	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	p = mmap(NULL, (size_t)psz * 5, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	pg = (struct perf_event_mmap_page *)p;
	EXPECT_ERRNO(munmap(p + psz * 4, (size_t)psz), EINVAL);	/* last data page */
	EXPECT_ERRNO(munmap(p, (size_t)psz), EINVAL);			/* control page */
	EXPECT_ERRNO(munmap(p + psz, (size_t)psz * 2), EINVAL);		/* middle */
	/* still one whole ring: records land in it */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(2);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_GE(__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), 2u * 16u);
	EXPECT_EQ(pg->data_size, (uint64_t)psz * 4);
	EXPECT_OK(munmap(p, (size_t)psz * 5));
}
