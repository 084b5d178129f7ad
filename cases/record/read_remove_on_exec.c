#include "perfabi.h"

static void touch_and_exec(void)
{
	pa_touch_pages(16);
	execl("/bin/true", "true", (char *)NULL);
	_exit(3);
}

PERFABI_CASE(
	.assertion = "attr.inherit_stat: when an inherited event leaves a child (here: remove_on_exec at the child's exec), PERF_RECORD_READ {pid, tid, read_format values} reports the child's count, with read_format ID the original event's id",
	.ref = "perf_event_open(2), inherit_stat; PERF_RECORD_READ \"This record indicates a read event\"; kernel/events/core.c perf_child_detach() -> sync_child_event() -> perf_event_read_event(); remove_on_exec (5.13)",
	.alone = true,
	.covers = "attr.inherit_stat record.READ attr.remove_on_exec",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	const struct pa_read_rec *rr;
	uint64_t id = 0;
	pid_t child;

	if (access("/bin/true", X_OK))
		pa_skip("/bin/true is not there to exec");
	attr.remove_on_exec = 1;
	rr = pa_inherit_stat_read_record(&attr, touch_and_exec, &child, &id);
	ASSERT_TRUE(rr != NULL);
	EXPECT_EQ(rr->h.size, sizeof(*rr));
	EXPECT_EQ(rr->tid, (uint32_t)child);
	EXPECT_GE(rr->value, 16u);
	EXPECT_EQ(rr->id, id);
}
