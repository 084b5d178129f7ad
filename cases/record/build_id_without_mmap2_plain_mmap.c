#include "perfabi.h"

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
	struct pa_ring r;
	int n_mmap, n_mmap2;

	attr.disabled = 0;
	attr.mmap = 1;
	attr.build_id = 1;
	pa_ring_map(&r, ASSERT_OPEN(&attr, 0, -1, -1, 0), 4);
	pa_mmap_self_records(&r, PROT_READ | PROT_EXEC, &n_mmap, &n_mmap2);
	EXPECT_EQ(n_mmap, 1);
	EXPECT_EQ(n_mmap2, 0);
}
