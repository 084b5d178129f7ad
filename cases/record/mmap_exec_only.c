#include "perfabi.h"

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
	struct pa_ring r;
	int n_mmap, n_mmap2;

	attr.disabled = 0;
	attr.mmap = 1;
	pa_ring_map(&r, ASSERT_OPEN(&attr, 0, -1, -1, 0), 4);
	pa_mmap_self_records(&r, PROT_READ, &n_mmap, &n_mmap2);
	EXPECT_EQ(n_mmap, 0);
	pa_mmap_self_records(&r, PROT_READ | PROT_EXEC, &n_mmap, &n_mmap2);
	EXPECT_EQ(n_mmap, 1);
}
