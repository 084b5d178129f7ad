#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

/* Is [p, p + len) mapped at all?  mincore() answers ENOMEM where not. */
static bool mapped(void *p, size_t len)
{
	unsigned char vec[8];

	return mincore(p, len, vec) == 0;
}

PERFABI_CASE(
	.assertion = "moving a whole ring mapping with mremap(MREMAP_MAYMOVE | MREMAP_FIXED), same size, succeeds: the old range is unmapped, the new one shows the same ring (data_head, data_size, the records already written), records keep landing in it, and it remains the event's only mapping: once it is unmapped the ring is freed and a mapping of another size succeeds",
	.ref = "mremap(2); mm/mremap.c move_vma() -> copy_vma() (vm_ops->open = perf_mmap_open()) then unmap of the old vma (perf_mmap_close()); kernel/events/core.c perf_mmap_close(): the last unmap frees event->rb; perf_mmap(): an existing rb of another size -> -EINVAL",
	.covers = "mmap.remap mmap.data_head mmap.size",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE), len = psz * 3;
	struct perf_event_mmap_page *pg;
	uint64_t head0, c0, c1, sum = 0;
	const struct perf_event_header *h;
	unsigned char *old, *dst, *q;
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	old = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(old != MAP_FAILED);
	/* somewhere to move it: reserve a range, then move onto it */
	dst = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(dst != MAP_FAILED);

	pg = (struct perf_event_mmap_page *)old;
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(3);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &c0, 1);
	head0 = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	ASSERT_EQ(head0, c0 * 24);			/* 24-byte samples */

	q = mremap(old, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst);
	ASSERT_TRUE(q != MAP_FAILED);
	EXPECT_TRUE(q == dst);
	EXPECT_FALSE(mapped(old, psz));			/* the old range is gone */
	pg = (struct perf_event_mmap_page *)q;
	EXPECT_EQ(__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE), head0);
	EXPECT_EQ(pg->data_size, (uint64_t)psz * 2);
	h = (const struct perf_event_header *)(q + psz);	/* first record */
	EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_SAMPLE);
	EXPECT_EQ(h->size, 24u);

	/* more records land in the moved ring, read through it */
	r.fd = fd;
	r.page = pg;
	r.data = q + psz;
	r.data_size = psz * 2;
	r.map_len = len;
	r.tail = 0;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(3);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &c1, 1);
	EXPECT_EQ(pa_ring_head(&r), c1 * 24);
	while ((h = pa_ring_next(&r))) {
		EXPECT_EQ(h->type, (uint32_t)PERF_RECORD_SAMPLE);
		sum += h->size;
	}
	EXPECT_EQ(sum, c1 * 24);

	/* still one mapping of a 1 + 2 page ring: another size is refused */
	EXPECT_ERRNO((long)mmap(NULL, psz * 5, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), EINVAL);
	/* unmapping the moved range drops the last reference: ring freed */
	ASSERT_OK(munmap(q, len));
	pa_ring_map(&r, fd, 4);
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 4);
	EXPECT_EQ(pa_ring_head(&r), 0u);
}
