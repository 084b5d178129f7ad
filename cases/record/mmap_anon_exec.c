#include "perfabi.h"

#include <sys/mman.h>
#include <sys/syscall.h>

/*
 * An executable anonymous mapping has no file: kernel/events/core.c
 * perf_event_mmap_event() names it "//anon" (no vm_ops name, no arch name,
 * not the initial heap or stack), NUL-terminated and padded to 8 bytes.
 * The mapping is one PROT_READ|PROT_EXEC page placed (MAP_FIXED) in the
 * middle of a PROT_NONE reservation, so it cannot merge with a neighbour:
 * the record's addr and len are exactly the page's.
 */
PERFABI_CASE(
	.assertion = "attr.mmap: an anonymous mmap() with PROT_EXEC produces one PERF_RECORD_MMAP {pid, tid, addr, len, pgoff, filename} with the mapping's address and length and the filename \"//anon\" (NUL-terminated, the record padded to 8 bytes), from user space",
	.ref = "perf_event_open(2), mmap: \"enables generation of PERF_RECORD_MMAP samples for every mmap() call that has PROT_EXEC set\"; PERF_RECORD_MMAP; kernel/events/core.c perf_event_mmap_event() (name = \"//anon\")",
	.covers = "record.MMAP attr.mmap",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	const struct pa_mmap_rec *m;
	struct pa_ring r;
	char *res, *p;
	int fd, n = 0;

	res = mmap(NULL, 3 * psz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(res != MAP_FAILED);
	attr.disabled = 0;
	attr.mmap = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	p = mmap(res + psz, psz, PROT_READ | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED && (errno == EACCES || errno == EPERM))
		pa_skip("an executable anonymous mapping is refused here: %s", strerror(errno));
	ASSERT_TRUE(p == res + psz);
	while ((h = pa_ring_find(&r, PERF_RECORD_MMAP))) {
		m = (const struct pa_mmap_rec *)h;
		if (m->addr + m->len <= (uint64_t)(uintptr_t)res ||
		    m->addr >= (uint64_t)(uintptr_t)res + 3 * psz)
			continue;	/* not in our reservation */
		n++;
		EXPECT_EQ(m->addr, (uint64_t)(uintptr_t)p);
		EXPECT_EQ(m->len, (uint64_t)psz);
		EXPECT_EQ(m->pid, (uint32_t)getpid());
		EXPECT_EQ(m->tid, (uint32_t)syscall(SYS_gettid));
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_TRUE(strcmp(m->filename, "//anon") == 0);
		EXPECT_EQ(h->size, sizeof(*m) + 8);	/* "//anon\0" padded */
	}
	EXPECT_EQ(n, 1);
	munmap(res, 3 * psz);
	close(fd);
}
