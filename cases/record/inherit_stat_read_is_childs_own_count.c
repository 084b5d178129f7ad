#include "perfabi.h"

/*
 * pa_inherit_stat_read_record() opens an enabled, inherited, inherit_stat
 * page-fault counter (read_format ID) on us, forks a child that runs the
 * function and exits, and returns the PERF_RECORD_READ written for that
 * child. Twice, with children touching 1 and 1 + 512 fresh pages: the
 * children's own copy-on-write faults are the same, so if each record
 * carries that child's own count, the two values are exactly 512 apart.
 * A record carrying the parent's total (the parent's faults plus every
 * child folded in so far) or a count added twice does not give 512.
 */
static void touch_1(void)
{
	pa_touch_pages(1);
}

static void touch_513(void)
{
	pa_touch_pages(1 + 512);
}

PERFABI_CASE(
	.assertion = "attr.inherit_stat: the PERF_RECORD_READ written when an inherited child exits carries that child's own count: children touching 1 and 513 fresh pages get values exactly 512 apart, each record naming its child",
	.ref = "perf_event_open(2), inherit_stat; PERF_RECORD_READ {pid, tid, values}; kernel/events/core.c sync_child_event() -> perf_event_read_event(child_event, task); c418d8b4d7a4 \"perf/core: Fix missing read event generation on task exit\"",
	.alone = true,
	.covers = "attr.inherit_stat record.READ attr.inherit read_format.ID",
	.xfail = {
		.from = "5.13",
		.to = "6.19",
		.fixed_in = "6.18.2 6.17.13",
		.why = "the child context is marked TASK_TOMBSTONE before sync_child_event() runs, so no PERF_RECORD_READ is generated at exit (regressed by ef54c1a476ae \"perf: Rework perf_event_exit_event()\", 5.13); fixed in 6.19 (c418d8b4d7a4) and by the stable backports da07fa873059 (6.18.2) and e70bd000760a (6.17.13); no backport to 6.12.y, 6.6.y, 6.1.y or 5.15.y was found (the fix touches __pmu_detach_event(), which only 6.17+ has)",
		.fix = "c418d8b4d7a4",
	},
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a1 = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr a2 = a1;
	const struct pa_read_rec *rr;
	uint64_t id1 = 0, id2 = 0, v1, v2;
	pid_t c1, c2;

	rr = pa_inherit_stat_read_record(&a1, touch_1, &c1, &id1);
	ASSERT_TRUE(rr != NULL);
	EXPECT_EQ(rr->pid, (uint32_t)c1);
	EXPECT_EQ(rr->tid, (uint32_t)c1);
	EXPECT_EQ(rr->id, id1);
	v1 = rr->value;		/* rr is reused by the next call */
	rr = pa_inherit_stat_read_record(&a2, touch_513, &c2, &id2);
	ASSERT_TRUE(rr != NULL);
	EXPECT_EQ(rr->pid, (uint32_t)c2);
	EXPECT_EQ(rr->tid, (uint32_t)c2);
	EXPECT_EQ(rr->id, id2);
	v2 = rr->value;
	pa_diag("READ value of the child touching 1 page: %llu, 513 pages: %llu",
		(unsigned long long)v1, (unsigned long long)v2);
	EXPECT_GE(v1, 1u);
	EXPECT_EQ(v2 - v1, 512u);
}
