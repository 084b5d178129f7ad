#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * d06bf78e55d5: an event whose output goes into another event's ring
 * (PERF_FLAG_FD_OUTPUT at open, or PERF_EVENT_IOC_SET_OUTPUT) has
 * event->rb set but no mapping of its own (mmap_count 0). mmap() of it,
 * of the ring's size, took the "map the same buffer again" path and
 * incremented its mmap_count from 0: since 448f97fba901 (6.18) made that
 * a refcount_t, a "refcount_t: addition on 0; use-after-free" warning,
 * and two events writing one control page. Since the fix it fails with
 * EBUSY.
 */
PERFABI_CASE(
	.assertion = "mmap() of an event that was redirected into another event's mapped ring (PERF_FLAG_FD_OUTPUT, or PERF_EVENT_IOC_SET_OUTPUT), at that ring's size, fails with EBUSY; the target's ring stays mapped and its control page keeps its data_size",
	.ref = "\"perf: Fix refcount warning on event->mmap_count increment\" d06bf78e55d5 (6.19, CVE-2026-23127; stable 6.18.8): kernel/events/core.c perf_mmap_rb() returns -EBUSY when event->rb is set and event->mmap_count is 0",
	.covers = "flag.FD_OUTPUT ioctl.SET_OUTPUT mmap.size errno.EBUSY",
	.fix = { .commit = "d06bf78e55d5", .subject = "perf: Fix refcount warning on event->mmap_count increment", .release = "6.19", .cve = "CVE-2026-23127", .stable = "6.18.8" },
	/* before 448f97fba901 (6.18) such a mapping was allowed (an atomic_t
	 * count, no warning): the refusal is the fix's, the range its Fixes: */
	.min_kernel = "6.18",
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "6.18",	/* Fixes: 448f97fba901 */
		.to = "6.19",
		.why = "perf_mmap_rb() mapped the redirected event's ring again with refcount_inc() of its zero mmap_count: a refcount_t warning, the count saturated",
		.fix = "d06bf78e55d5",
		/* linux-6.18.y: 23c0e4bd93d0 before v6.18.8 */
		.fixed_in = "6.18.8",
	},
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)psz * 3;	/* a's size: 1 + 2 pages */
	struct pa_ring r;
	int a, b, c;

	a = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, a, 2);
	/* the advisory's way: a group member opened with FD_OUTPUT */
	b = ASSERT_OPEN(&attr, 0, -1, a, PERF_FLAG_FD_OUTPUT);
	EXPECT_ERRNO(mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, b, 0), EBUSY);
	/* and the ioctl's */
	c = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(c, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_ERRNO(mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, c, 0), EBUSY);
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 2);
	pa_ring_unmap(&r);
	close(c);
	close(b);
	close(a);
}
