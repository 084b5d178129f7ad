#include "perfabi.h"

#include <sys/mman.h>

/*
 * mmap_data is the counterpart of mmap: it reports mappings without
 * PROT_EXEC. Set alone, a PROT_READ mapping of a file produces a
 * PERF_RECORD_MMAP and a PROT_EXEC mapping produces none.
 */
PERFABI_CASE(
	.assertion = "attr.mmap_data without attr.mmap: a PROT_READ mmap of a file produces one PERF_RECORD_MMAP, a PROT_EXEC mmap of the same file produces none",
	.ref = "perf_event_open(2), mmap_data: \"This is the counterpart of the mmap option, but enables including data mmap events in the ring-buffer\"; kernel/events/core.c perf_event_mmap_match(): (!executable && mmap_data) || (executable && (mmap || mmap2))",
	.covers = "attr.mmap_data record.MMAP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct pa_ring r;
	int n_mmap, n_mmap2;

	attr.disabled = 0;
	attr.mmap_data = 1;
	pa_ring_map(&r, ASSERT_OPEN(&attr, 0, -1, -1, 0), 4);
	pa_mmap_self_records(&r, PROT_READ | PROT_EXEC, &n_mmap, &n_mmap2);
	EXPECT_EQ(n_mmap, 0);
	pa_mmap_self_records(&r, PROT_READ, &n_mmap, &n_mmap2);
	EXPECT_EQ(n_mmap, 1);
}
