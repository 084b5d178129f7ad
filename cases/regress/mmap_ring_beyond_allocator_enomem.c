#include "perfabi.h"

#include <sys/mman.h>

/*
 * 9dff0aa95a32: rb_alloc() asks kmalloc for the ring's page array, 8
 * bytes per data page after struct perf_buffer. A ring whose array is
 * larger than the biggest block the page allocator gives (PAGE_SIZE <<
 * the largest order) could never be allocated, and asking anyway made the
 * allocator WARN. Since the fix rb_alloc() refuses such a size first and
 * mmap() fails with ENOMEM, quietly (the runner fails a case during which
 * the kernel logs a WARNING).
 *
 * The largest order is the last column of /proc/buddyinfo. With 2^k data
 * pages, k = PAGE_SHIFT + that order - 3, the array alone fills the
 * largest block, so with the struct it is over: the smallest impossible
 * ring. One 64 times larger is tried too. Only address space is asked
 * for: mmap() fails before any page is allocated. CAP_IPC_LOCK lets the
 * size pass the locked-memory limits that would refuse it first (EPERM).
 * Not where the kernel builds rings with vmalloc (CONFIG_PERF_USE_VMALLOC:
 * arm, mips, sh, sparc32...): there the array is one pointer.
 */
static int max_order(void)
{
	FILE *f = fopen("/proc/buddyinfo", "r");
	char line[1024];
	int best = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "zone");
		int n = -1, off;
		unsigned long v;

		if (!p)
			continue;
		p += 4;
		while (*p == ' ')
			p++;
		while (*p && *p != ' ')	/* the zone's name */
			p++;
		while (sscanf(p, "%lu%n", &v, &off) == 1) {
			n++;
			p += off;
		}
		if (n > best)
			best = n;
	}
	fclose(f);
	return best;
}

PERFABI_CASE(
	.assertion = "mmap() of a ring whose page array is larger than the page allocator's largest block (2^k data pages, 2^(k+3) >= PAGE_SIZE << MAX_PAGE_ORDER) fails with ENOMEM, with no kernel warning, and so does one 64 times larger; the event still maps a one-page ring afterwards",
	.ref = "\"perf/core: Don't WARN() for impossible ring-buffer sizes\" 9dff0aa95a32 (5.0): kernel/events/ring_buffer.c rb_alloc() fails when order_base_2(size) exceeds PAGE_SHIFT + MAX_PAGE_ORDER; kernel/events/core.c perf_mmap() -ENOMEM",
	.covers = "mmap.size cap.CAP_IPC_LOCK errno.ENOMEM",
	.fix = { .commit = "9dff0aa95a32", .subject = "perf/core: Don't WARN() for impossible ring-buffer sizes", .release = "5.0" },
	.caps = PA_CAP(PA_CAP_IPC_LOCK),
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "2.6.31",	/* the kmalloc'ed page array */
		.to = "5.0",
		.why = "rb_alloc() passed the impossible size to kzalloc_node(), which WARNs in the page allocator (the mmap() still failed with ENOMEM)",
		.fix = "9dff0aa95a32",
	},
) {
#if !defined(__x86_64__) && !defined(__aarch64__) && !defined(__powerpc64__) && \
    !defined(__s390x__) && !(defined(__riscv) && __riscv_xlen == 64)
	pa_skip("checked on 64-bit architectures without CONFIG_PERF_USE_VMALLOC (x86-64, arm64, ppc64, s390x, riscv64)");
#else
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long psz = sysconf(_SC_PAGESIZE);
	int order = max_order(), shift = __builtin_ctzl((unsigned long)psz);
	struct pa_ring r;
	int fd, k;

	if (order < 0)
		pa_skip("/proc/buddyinfo cannot be read");
	k = shift + order - 3;
	pa_diag("page size %ld, largest order %d: 2^%d data pages", psz, order, k);
	ASSERT_LE(k + 6, 30);	/* nr_pages is an int in rb_alloc() */
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	for (int e = k; e <= k + 6; e += 6) {
		size_t len = ((size_t)1 << e) * (size_t)psz + (size_t)psz;
		void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		int err = errno;
		void *q;

		if (p != MAP_FAILED) {
			pa_fail("2^%d data pages mapped", e);
			munmap(p, len);
			continue;
		}
		/* an address space limit would say ENOMEM before perf */
		q = mmap(NULL, len, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (q == MAP_FAILED)
			pa_skip("no %zu bytes of address space here", len);
		munmap(q, len);
		if (err != ENOMEM)
			pa_fail("2^%d data pages: %s, expected ENOMEM", e, pa_errno_name(err));
	}
	pa_ring_map(&r, fd, 1);
	pa_ring_unmap(&r);
	close(fd);
#endif
}
