#include "perfabi.h"

#include <fcntl.h>
#include <sys/mman.h>

/*
 * With both mmap and mmap2 set, an executable mapping is reported once, in
 * the extended form: one PERF_RECORD_MMAP2 and no PERF_RECORD_MMAP.
 */
PERFABI_CASE(
	.assertion = "attr.mmap2 together with attr.mmap: a PROT_EXEC mmap of a file is reported as one PERF_RECORD_MMAP2 and no PERF_RECORD_MMAP",
	.ref = "perf_event_open(2), mmap2 (3.16): \"Generate an extended executable mmap record that contains enough additional information to uniquely identify shared mappings\"; kernel/events/core.c perf_event_mmap_output(): \"if (event->attr.mmap2) ... PERF_RECORD_MMAP2\"",
	.covers = "attr.mmap2 attr.mmap record.MMAP2",
	.min_kernel = "3.16",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	struct pa_ring r;
	int fd, file, n1 = 0, n2 = 0;
	void *m;

	attr.disabled = 0;
	attr.mmap = 1;
	attr.mmap2 = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	file = ASSERT_OK(open(pa_self_exe(), O_RDONLY | O_CLOEXEC));
	while (pa_ring_next(&r))
		;
	m = mmap(NULL, psz, PROT_READ | PROT_EXEC, MAP_PRIVATE, file, 0);
	ASSERT_TRUE(m != MAP_FAILED);
	munmap(m, psz);
	while ((h = pa_ring_next(&r))) {
		n1 += h->type == PERF_RECORD_MMAP;
		n2 += h->type == PERF_RECORD_MMAP2;
	}
	EXPECT_EQ(n2, 1);
	EXPECT_EQ(n1, 0);
	close(file);
	pa_ring_unmap(&r);
	close(fd);
}
