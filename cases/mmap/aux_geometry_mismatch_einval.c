#include "perfabi.h"

#include <sys/mman.h>

/*
 * The AUX area is mapped exactly where and as large as the control page
 * says: aux_offset and aux_size are written first, then the mapping must
 * start at aux_offset and be aux_size long. A mapping that disagrees fails
 * with EINVAL before the PMU is asked; the agreeing mapping reaches the
 * PMU, and a software event (no AUX) then fails with EOPNOTSUPP.
 */
static long map_at(struct pa_ring *r, size_t aux_off, size_t aux_size,
		   size_t off, size_t len)
{
	void *p;

	r->page->aux_offset = aux_off;
	r->page->aux_size = aux_size;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, (off_t)off);
	if (p != MAP_FAILED)
		munmap(p, len);
	return p == MAP_FAILED ? -1 : 0;
}

PERFABI_CASE(
	.assertion = "an AUX area mapping must match the control page: mapped at a file offset other than aux_offset, or with a length other than aux_size, it fails with EINVAL (before the PMU is asked); the same geometry mapped as announced passes those checks (a software event then fails with EOPNOTSUPP, its PMU having no AUX)",
	.ref = "include/uapi/linux/perf_event.h struct perf_event_mmap_page (4.1): \"AUX area is defined by aux_{offset,size} fields that should be set by the userspace ... prior to mmap()ing it. Size of the mmap()ed area should be aux_size.\"; kernel/events/core.c perf_mmap() AUX path (6.17+: perf_mmap_aux()): aux_offset != vm_pgoff << PAGE_SHIFT -> -EINVAL, aux_size != vma_size -> -EINVAL, then rb_alloc_aux() (!has_aux -> -EOPNOTSUPP)",
	.covers = "mmap.aux_area mmap.size errno.EINVAL errno.EOPNOTSUPP",
	.min_kernel = "6.1",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE), end;
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 2);				/* file pages 0..2 */
	end = psz * 3;					/* first offset past the ring */

	/* offset: announced at end, mapped one page further, and the reverse */
	EXPECT_ERRNO(map_at(&r, end, psz * 2, end + psz, psz * 2), EINVAL);
	EXPECT_ERRNO(map_at(&r, end + psz, psz * 2, end, psz * 2), EINVAL);
	/* size: announced 4 pages, mapped 2, and announced 2, mapped 4 */
	EXPECT_ERRNO(map_at(&r, end, psz * 4, end, psz * 2), EINVAL);
	EXPECT_ERRNO(map_at(&r, end, psz * 2, end, psz * 4), EINVAL);
	/* size not a page multiple: aux_size one byte short of the mapping */
	EXPECT_ERRNO(map_at(&r, end, psz * 2 - 1, end, psz * 2), EINVAL);
	/* as announced: the geometry checks pass, the PMU has no AUX */
	EXPECT_ERRNO(map_at(&r, end, psz * 2, end, psz * 2), EOPNOTSUPP);
	EXPECT_ERRNO(map_at(&r, end + psz * 2, psz * 2, end + psz * 2, psz * 2), EOPNOTSUPP);
	/* the ring itself is untouched */
	EXPECT_EQ(r.page->data_offset, (uint64_t)psz);
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 2);
}
