#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

/* "perf/core: Prevent VMA split of buffer mappings" (b024d7b56c77, 6.17,
 * CVE-2025-38563) is in the stable releases pa_since_vma_split_refused()
 * names; elsewhere the version cannot tell, and the old behaviour (a shrunk ring vma) is the refcount leak the fix removed. */
PERFABI_CASE(
	.assertion = "a ring mapping cannot shrink: mremap() to a smaller size (1 + 4 pages to a valid 1 + 2, or to the control page alone), in place or moving, fails with EINVAL, since it would split the vma; the ring stays one whole vma and keeps working",
	.ref = "kernel/events/core.c perf_mmap_vmops.may_split = perf_mmap_may_split() -> -EINVAL (\"perf/core: Prevent VMA split of buffer mappings\", 6.17, in 6.1.158+ and 6.12.63+); mm/mremap.c shrink -> do_vmi_munmap() -> __split_vma() -> vm_ops->may_split; mremap(2)",
	.fix = { .commit = "b024d7b56c77", .subject = "perf/core: Prevent VMA split of buffer mappings", .release = "6.17", .cve = "CVE-2025-38563", .stable = "6.12.63 6.1.158" },
	.covers = "mmap.remap mmap.size errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE), len = psz * 5;
	const struct perf_event_header *h;
	struct pa_ring r;
	uintptr_t end = 0;
	uint64_t count;
	int fd, n = 0;

	if (pa_since_vma_split_refused() != 1)
		pa_skip("kernel %d.%d.%d: the refusal to split a ring mapping (b024d7b56c77) is not in this kernel or not known to be",
			pa_kernel().major, pa_kernel().minor, pa_kernel().patch);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	EXPECT_ERRNO((long)mremap(r.page, len, psz * 3, 0), EINVAL);
	EXPECT_ERRNO((long)mremap(r.page, len, psz, 0), EINVAL);
	EXPECT_ERRNO((long)mremap(r.page, len, psz * 3, MREMAP_MAYMOVE), EINVAL);
	EXPECT_TRUE(pa_vma_at(r.page, &end, NULL));
	EXPECT_EQ(end, (uintptr_t)r.page + len);	/* one whole vma */
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 4);

	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &count, 1);
	ASSERT_GE(count, 4u);
	EXPECT_EQ(pa_ring_head(&r), count * 24);	/* 24-byte samples */
	while ((h = pa_ring_next(&r))) {
		EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_SAMPLE);
		n++;
	}
	EXPECT_EQ((uint64_t)n, count);
	EXPECT_OK(munmap(r.page, len));
}
