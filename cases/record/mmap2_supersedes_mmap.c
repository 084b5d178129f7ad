#include "perfabi.h"

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
	struct pa_ring r;
	int n_mmap, n_mmap2;

	attr.disabled = 0;
	attr.mmap = 1;
	attr.mmap2 = 1;
	pa_ring_map(&r, ASSERT_OPEN(&attr, 0, -1, -1, 0), 4);
	pa_mmap_self_records(&r, PROT_READ | PROT_EXEC, &n_mmap, &n_mmap2);
	EXPECT_EQ(n_mmap2, 1);
	EXPECT_EQ(n_mmap, 0);
}
