#include "perfabi.h"

#include <fcntl.h>
#include <sys/mman.h>

/*
 * build_id changes only the MMAP2 record (build id in place of the
 * device/inode fields). The kernel does not require mmap2 for it: with
 * build_id and plain mmap, an executable mapping still gives one ordinary
 * PERF_RECORD_MMAP and no MMAP2.
 */
PERFABI_CASE(
	.assertion = "attr.build_id with attr.mmap but without attr.mmap2 is accepted and has no effect on records: an executable mmap produces one PERF_RECORD_MMAP and no PERF_RECORD_MMAP2",
	.ref = "include/uapi/linux/perf_event.h build_id \"use build id in mmap2 events\" (5.12, 88a16a130933); kernel/events/core.c perf_event_mmap_output() uses build_id only in the mmap2 branch",
	.covers = "attr.build_id attr.mmap record.MMAP",
	.min_kernel = "5.12",
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
	attr.build_id = 1;
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
	EXPECT_EQ(n1, 1);
	EXPECT_EQ(n2, 0);
	close(file);
	pa_ring_unmap(&r);
	close(fd);
}
