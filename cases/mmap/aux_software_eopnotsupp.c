#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "mapping an AUX area for an event whose PMU has no AUX support (a software event) fails with EOPNOTSUPP once the geometry is valid (aux_offset = the end of the ring, aux_size = the mapping's length, a power of two in pages, mapped at aux_offset), every time; the failed attempt leaves no reference behind: the ring keeps working, and after it is unmapped a ring of another size can be mapped",
	.ref = "perf_event_open(2), MMAP layout aux_offset/aux_size (4.1); kernel/events/core.c perf_mmap() AUX path (6.17+: perf_mmap_aux()): geometry checks -> -EINVAL, then rb_alloc_aux(): !has_aux(event) -> -EOPNOTSUPP, rb->mmap_count dropped again on failure; kernels before 6.1 not checked (the first AUX code returned the internal -ENOTSUPP)",
	.covers = "mmap.aux_area mmap.size mmap.remap errno.EOPNOTSUPP",
	.min_kernel = "6.1",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	struct pa_ring r;
	uint64_t count;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 2);				/* 1 + 2 pages */
	/* right after the ring */
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, psz * 3, psz * 2, PROT_READ | PROT_WRITE), EOPNOTSUPP);
	/* nothing half-set-up: the same answer again, and read-only too */
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, psz * 3, psz * 2, PROT_READ | PROT_WRITE), EOPNOTSUPP);
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, psz * 3, psz * 2, PROT_READ), EOPNOTSUPP);
	/* the kernel leaves the fields as written, and no AUX data */
	EXPECT_EQ(r.page->aux_offset, (uint64_t)psz * 3);
	EXPECT_EQ(r.page->aux_size, (uint64_t)psz * 2);
	EXPECT_EQ(r.page->aux_head, 0u);

	/* the ring works */
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &count, 1);
	ASSERT_GE(count, 4u);
	EXPECT_EQ(pa_ring_head(&r), count * 24);	/* 24-byte samples */
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 2);

	/* our mapping was the ring's only reference: unmapped, it is freed */
	pa_ring_unmap(&r);
	pa_ring_map(&r, fd, 4);
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 4);
	EXPECT_EQ(pa_ring_head(&r), 0u);
	EXPECT_EQ(r.page->aux_offset, 0u);		/* a fresh control page */
	EXPECT_EQ(r.page->aux_size, 0u);
}
