#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "a ring mapping cannot grow: mremap() to a larger size fails with EFAULT, in place and with MREMAP_MAYMOVE alike (perf_mmap() sets VM_DONTEXPAND), and the ring stays mapped at its address with its size, receiving records",
	.ref = "kernel/events/core.c perf_mmap(): VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP (3.7, 314e51b9851b); mm/mremap.c vma_to_resize() / the 6.17+ resize checks: growing a VM_DONTEXPAND | VM_PFNMAP vma -> -EFAULT; mremap(2) EFAULT",
	.covers = "mmap.remap mmap.size errno.EFAULT",
	.min_kernel = "3.7",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	struct pa_ring r;
	uint64_t count;
	int fd, n = 0;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 2);
	/* 1 + 2 pages -> 1 + 4 pages (a valid ring size: not the reason) */
	EXPECT_ERRNO((long)mremap(r.page, r.map_len, psz * 5, 0), EFAULT);
	EXPECT_ERRNO((long)mremap(r.page, r.map_len, psz * 5, MREMAP_MAYMOVE), EFAULT);
	/* one page more, too */
	EXPECT_ERRNO((long)mremap(r.page, r.map_len, r.map_len + psz, MREMAP_MAYMOVE), EFAULT);
	/* the ring is still there, unchanged, and works */
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 2);
	EXPECT_EQ(pa_ring_head(&r), 0u);
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &count, 1);
	ASSERT_GE(count, 4u);
	EXPECT_EQ(pa_ring_head(&r), count * 24);	/* 24-byte samples, none lost */
	while ((h = pa_ring_next(&r))) {
		EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_SAMPLE);
		n++;
	}
	EXPECT_EQ((uint64_t)n, count);
	EXPECT_OK(munmap(r.page, r.map_len));
}
