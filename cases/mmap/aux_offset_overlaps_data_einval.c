#include "perfabi.h"

#include <sys/mman.h>

/* Set aux_offset/aux_size and map aux_size bytes at aux_offset. */
PERFABI_CASE(
	.assertion = "the AUX area must lie above the ring: an aux_offset below the end of the control page and data pages (1 + 4 pages here), mapped at that offset, fails with EINVAL, before the PMU is asked; the first offset past the ring passes that check (a software event then fails with EOPNOTSUPP, its PMU having no AUX)",
	.ref = "perf_event_open(2), MMAP layout: aux_offset (4.1); kernel/events/core.c perf_mmap() AUX path (6.17+: perf_mmap_aux()): aux_offset < perf_data_size(rb) + PAGE_SIZE -> -EINVAL, checked before rb_alloc_aux() (!has_aux -> -EOPNOTSUPP)",
	.covers = "mmap.aux_area mmap.data_offset errno.EINVAL errno.EOPNOTSUPP",
	.min_kernel = "6.1",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);				/* file pages 0..4 */
	/* inside the data area: last data page, and two pages over its end */
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, psz * 4, psz, PROT_READ | PROT_WRITE), EINVAL);
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, psz * 3, psz * 2, PROT_READ | PROT_WRITE), EINVAL);
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, psz * 1, psz, PROT_READ | PROT_WRITE), EINVAL);
	/* the boundary: data_size + PAGE_SIZE is accepted by that check */
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, psz * 5, psz, PROT_READ | PROT_WRITE), EOPNOTSUPP);
	/* the ring itself is untouched */
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 4);
	EXPECT_EQ(r.page->data_offset, (uint64_t)psz);
}
