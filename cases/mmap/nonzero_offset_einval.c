#include "perfabi.h"

#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "the ring is mapped at offset 0: a mapping at a non-zero (page-aligned) offset fails with EINVAL, both before any ring exists and, with the ring mapped, right past its data pages while no AUX area was set up (aux_offset 0)",
	.ref = "perf_event_open(2), MMAP layout (the ring starts at file offset 0; AUX area only at aux_offset); kernel/events/core.c perf_mmap(): vm_pgoff != 0 is the AUX path: no rb, or aux_offset < data_size + PAGE_SIZE -> -EINVAL",
	.covers = "mmap.data_offset errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct pa_ring r;
	void *p;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	/* no ring yet: one page at offset one page, and a ring-sized one */
	errno = 0;
	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, psz);
	EXPECT_TRUE(p == MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	errno = 0;
	p = mmap(NULL, (size_t)psz * 3, PROT_READ | PROT_WRITE, MAP_SHARED, fd, psz);
	EXPECT_TRUE(p == MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	/* ring of 1 + 2 pages mapped at 0; offset 3 pages, aux_offset still 0 */
	pa_ring_map(&r, fd, 2);
	EXPECT_EQ(r.page->aux_offset, 0u);
	errno = 0;
	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, psz * 3);
	EXPECT_TRUE(p == MAP_FAILED);
	EXPECT_EQ(errno, EINVAL);
	/* the ring is untouched: still mapped and empty */
	EXPECT_EQ(pa_ring_head(&r), 0u);
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 2);
}
