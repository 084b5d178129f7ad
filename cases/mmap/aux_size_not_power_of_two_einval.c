#include "perfabi.h"

#include <sys/mman.h>

/* Set aux_offset/aux_size and map aux_size bytes at aux_offset. */
PERFABI_CASE(
	.assertion = "the AUX area, like the data area, is a power of two pages: with aux_offset right after the ring and aux_size equal to the mapping, 3, 5 and 6 pages fail with EINVAL before the PMU is asked, while 1, 2 and 4 pages pass that check (a software event then fails with EOPNOTSUPP, its PMU having no AUX)",
	.ref = "perf_event_open(2), MMAP layout: aux_size (4.1); kernel/events/core.c perf_mmap() AUX path (6.17+: perf_mmap_aux()): !is_power_of_2(nr_pages) -> -EINVAL, checked before rb_alloc_aux() (!has_aux -> -EOPNOTSUPP)",
	.covers = "mmap.aux_area mmap.size errno.EINVAL errno.EOPNOTSUPP",
	.min_kernel = "6.1",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE), off;
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	off = psz * 2;					/* right after 1 + 1 pages */
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, off, psz * 3, PROT_READ | PROT_WRITE), EINVAL);
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, off, psz * 5, PROT_READ | PROT_WRITE), EINVAL);
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, off, psz * 6, PROT_READ | PROT_WRITE), EINVAL);
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, off, psz * 1, PROT_READ | PROT_WRITE), EOPNOTSUPP);
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, off, psz * 2, PROT_READ | PROT_WRITE), EOPNOTSUPP);
	EXPECT_ERRNO((long)pa_ring_try_map_aux(&r, off, psz * 4, PROT_READ | PROT_WRITE), EOPNOTSUPP);
}
