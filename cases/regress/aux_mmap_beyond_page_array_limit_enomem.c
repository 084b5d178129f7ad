#include "perfabi.h"

#include <sys/mman.h>
#include <sys/resource.h>

/*
 * 54aee5f15b83: an AUX area whose page-pointer array (8 bytes a page) is
 * larger than the biggest allocation the page allocator serves (PAGE_SIZE
 * << MAX_PAGE_ORDER: 4 MiB on x86, so more than 512Ki pages) reached
 * kcalloc_node() in rb_alloc_aux(), which failed with a WARNING from
 * __alloc_pages(). Since the fix rb_alloc_aux() refuses it up front: the
 * mmap() fails with ENOMEM and the kernel logs nothing (the runner fails
 * a case during which it logs a WARNING). The refused mmap() leaves no
 * AUX area behind: one of 16 pages maps right after.
 *
 * 2^24 pages (64 GiB of address space, an array of 128 MiB) is past the
 * limit for any MAX_PAGE_ORDER up to 14 with 4 KiB pages. The mlock
 * accounting comes first: without CAP_IPC_LOCK (or paranoid -1), and under
 * a finite RLIMIT_MEMLOCK, the mmap() fails with EPERM before the check.
 */
#define HUGE_PAGES	(1ul << 24)

PERFABI_CASE(
	.assertion = "mmap() of an AUX area too large for the kernel's page-pointer array (2^24 pages) fails with ENOMEM without a kernel WARNING (EPERM first where the mlock limit applies), and leaves no AUX area: a 16-page one maps afterwards",
	.ref = "\"perf/core: Bail out early if the request AUX area is out of bound\" 54aee5f15b83 (6.7, CVE-2023-52835; stable 6.5.13, 6.1.64): kernel/events/ring_buffer.c rb_alloc_aux() \"get_order(nr_pages * sizeof(void *)) > MAX_PAGE_ORDER\"",
	.covers = "mmap.aux_area errno.EPERM errno.ENOMEM",
	.fix = { .commit = "54aee5f15b83", .subject = "perf/core: Bail out early if the request AUX area is out of bound", .release = "6.7", .cve = "CVE-2023-52835", .stable = "6.5.13 6.1.64" },
	.pmu = "intel_pt",
	.min_kernel = "4.1",
	.privileged = true,
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "4.1",	/* 45bfb2e50471 "perf: Add AUX area to ring buffer for raw data streams" */
		.to = "6.7",
		.why = "rb_alloc_aux() passed the oversized page-pointer array to kcalloc_node(): a WARNING from __alloc_pages() (the errno was ENOMEM all the same)",
		.fix = "54aee5f15b83",
		.fixed_in = "6.5.13 6.1.64",
	},
) {
#if __SIZEOF_POINTER__ < 8
	pa_skip("a 64 GiB mapping needs a 64-bit address space");
#else
	struct perf_event_attr attr;
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	struct rlimit rl;
	struct pa_ring r;
	void *p;
	int fd, want;

	if (psz != 4096)
		pa_skip("page size %zu: the limit checked is the 4 KiB one", psz);
	/* a refusal by RLIMIT_AS would be an ENOMEM of its own */
	ASSERT_OK(getrlimit(RLIMIT_AS, &rl));
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / psz < 2 * HUGE_PAGES)
		pa_skip("RLIMIT_AS %llu is too small for the 64 GiB mapping",
			(unsigned long long)rl.rlim_cur);
	ASSERT_OK(getrlimit(RLIMIT_MEMLOCK, &rl));
	/* perf_mmap(): EPERM when the pages beyond perf_event_mlock_kb
	 * exceed RLIMIT_MEMLOCK, unless CAP_IPC_LOCK or paranoid -1 */
	want = pa_expected_errno(PA_NEED_MLOCK_OVER_LIMIT);
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur / psz >= HUGE_PAGES)
		want = 0;
	if (!want)
		want = ENOMEM;

	pa_intel_pt_attr(&attr);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	errno = 0;
	p = pa_ring_try_map_aux(&r, r.map_len, HUGE_PAGES * psz, PROT_READ);
	if (p != MAP_FAILED) {
		pa_fail("a %lu-page AUX area mapped", HUGE_PAGES);
		munmap(p, HUGE_PAGES * psz);
	} else {
		pa_diag("%lu-page AUX mmap: %s (expected %s; %s)", HUGE_PAGES,
			pa_errno_name(errno), pa_errno_name(want), pa_context_string());
		EXPECT_EQ(errno, want);
	}
	/* nothing left half set up: a small AUX area maps */
	p = pa_ring_try_map_aux(&r, r.map_len, 16 * psz, PROT_READ);
	if (p == MAP_FAILED)
		pa_fail("a 16-page AUX area after the refused one: %s", pa_errno_name(errno));
	else
		munmap(p, 16 * psz);
	pa_ring_unmap(&r);
	close(fd);
#endif
}
