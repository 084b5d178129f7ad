#include "perfabi.h"

#include <fcntl.h>
#include <sys/mman.h>

/*
 * mmap reports executable mappings: mapping a file PROT_READ only gives no
 * PERF_RECORD_MMAP (that needs mmap_data); mapping it PROT_EXEC gives one.
 */
PERFABI_CASE(
	.assertion = "attr.mmap (without mmap_data): an mmap of a file with PROT_EXEC produces one PERF_RECORD_MMAP, a PROT_READ-only mmap of the same file produces none",
	.ref = "perf_event_open(2), mmap: \"enables generation of PERF_RECORD_MMAP samples for every mmap(2) call that has PROT_EXEC set\"; kernel/events/core.c perf_event_mmap_match()",
	.covers = "attr.mmap record.MMAP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long psz = sysconf(_SC_PAGESIZE);
	struct pa_ring r;
	int fd, file;
	void *m;

	attr.disabled = 0;
	attr.mmap = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	(void)pa_ring_count(&r, PERF_RECORD_MMAP);
	file = ASSERT_OK(open(pa_self_exe(), O_RDONLY | O_CLOEXEC));
	m = mmap(NULL, psz, PROT_READ, MAP_PRIVATE, file, 0);
	ASSERT_TRUE(m != MAP_FAILED);
	munmap(m, psz);
	EXPECT_EQ(pa_ring_count(&r, PERF_RECORD_MMAP), 0);
	m = mmap(NULL, psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, file, 0);
	ASSERT_TRUE(m != MAP_FAILED);
	munmap(m, psz);
	EXPECT_EQ(pa_ring_count(&r, PERF_RECORD_MMAP), 1);
	close(file);
	pa_ring_unmap(&r);
	close(fd);
}
