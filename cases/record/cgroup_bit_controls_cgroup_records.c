#include "perfabi.h"


/*
 * Creating a cgroup produces PERF_RECORD_CGROUP in events with cgroup set
 * and nothing in an otherwise identical event without it. Root: creating a
 * cgroup (pa_cgroup_new() removes it, and leftovers of a killed run).
 */
PERFABI_CASE(
	.assertion = "attr.cgroup: creating a cgroup produces a PERF_RECORD_CGROUP in an event with cgroup set and none in an otherwise identical event without it",
	.ref = "perf_event_open(2), cgroup (5.7): \"enables the generation of PERF_RECORD_CGROUP records when a new cgroup is created\"; kernel/events/core.c perf_event_cgroup_match()",
	.alone = true,
	.covers = "attr.cgroup record.CGROUP",
	.features = "cgroup",
	.min_kernel = "5.7",
	.root = true,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct pa_cgroup cg;
	struct pa_ring ra, rb;
	int fa, fb, na, nb;

	a.disabled = b.disabled = 0;
	a.cgroup = 1;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_ring_map(&ra, fa, 4);
	pa_ring_map(&rb, fb, 4);
	pa_cgroup_new(&cg, "pa-attr-cg-", false);
	pa_cgroup_remove(&cg);
	na = pa_ring_count(&ra, PERF_RECORD_CGROUP);
	nb = pa_ring_count(&rb, PERF_RECORD_CGROUP);
	EXPECT_GE(na, 1);
	EXPECT_EQ(nb, 0);
	pa_ring_unmap(&ra);
	pa_ring_unmap(&rb);
	close(fa);
	close(fb);
}
