#include "perfabi.h"

/*
 * A disabled, inherited enable_on_exec page-fault counter on ourselves,
 * then a forked child (its context a clone of ours) that touches 200 pages
 * and execs the touch_pages fixture, which touches 64: only the child's
 * copy is enabled, at its exec (perf_event_enable_on_exec() unclones the
 * child's context and reschedules it), so the sum read from our fd holds
 * the fixture's 64 pages plus a few faults of its start-up, not the 200.
 * We never exec: our own 100 pages, before and after, are not counted.
 */
PERFABI_CASE(
	.assertion = "attr.enable_on_exec with attr.inherit: the inherited copy is enabled by the child's own exec (the new image's 64 touched pages are counted, the 200 touched before exec are not) while the parent's event stays disabled (its own 100 pages are not counted)",
	.ref = "perf_event_open(2), enable_on_exec: \"a counter is automatically enabled after a call to exec(2)\", inherit; kernel/events/core.c perf_event_enable_on_exec()",
	.covers = "attr.enable_on_exec attr.inherit attr.disabled",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int go, fd;
	pid_t pid;
	uint64_t v;

	attr.enable_on_exec = 1;
	attr.inherit = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pid = pa_exec_child_start(&go, 200, "touch_pages", "64");
	pa_touch_pages(50);
	EXPECT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_exec_child_go(pid, go), 0);
	v = pa_read_one(fd);
	pa_diag("%llu page faults counted", (unsigned long long)v);
	EXPECT_GE(v, 64);
	EXPECT_LT(v, 64 + 100);
	pa_touch_pages(50);
	EXPECT_EQ(pa_read_one(fd), v);
	close(fd);
}
