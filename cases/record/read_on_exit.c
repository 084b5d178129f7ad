#include "perfabi.h"

static void touch_and_exit(void)
{
	pa_touch_pages(16);
}

PERFABI_CASE(
	.assertion = "attr.inherit_stat: when a child with an inherited event exits, PERF_RECORD_READ {pid, tid, read_format values} reports the child's own count, with read_format ID the original event's id",
	.ref = "perf_event_open(2), inherit_stat: \"saves event counts on context switch for inherited tasks\"; PERF_RECORD_READ; c418d8b4d7a4 \"perf/core: Fix missing read event generation on task exit\": \"For events with inherit_stat enabled, a read event will be generated to collect per task event counts on task exit\"",
	.alone = true,
	.covers = "attr.inherit_stat record.READ attr.inherit",
	.xfail = {
		.from = "5.13",
		.to = "6.19",
		.fixed_in = "6.18.2 6.17.13",
		.why = "the child context is marked TASK_TOMBSTONE before sync_child_event() runs, so no PERF_RECORD_READ is generated at exit (regressed by ef54c1a476ae \"perf: Rework perf_event_exit_event()\", 5.13); fixed in 6.19 (c418d8b4d7a4) and by the stable backports da07fa873059 (6.18.2) and e70bd000760a (6.17.13); no backport to 6.12.y, 6.6.y, 6.1.y or 5.15.y was found (the fix touches __pmu_detach_event(), which only 6.17+ has)",
		.fix = "c418d8b4d7a4",
	},
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	const struct pa_read_rec *rr;
	uint64_t id = 0;
	pid_t child;

	rr = pa_inherit_stat_read_record(&attr, touch_and_exit, &child, &id);
	ASSERT_TRUE(rr != NULL);
	EXPECT_EQ(rr->h.size, sizeof(*rr));
	EXPECT_EQ(rr->tid, (uint32_t)child);
	EXPECT_GE(rr->value, 16u);
	EXPECT_EQ(rr->id, id);
}
