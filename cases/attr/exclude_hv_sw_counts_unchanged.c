#include "perfabi.h"

/*
 * Software events are never in a hypervisor: perf_exclude_event() looks at
 * user/kernel mode only, so exclude_hv changes nothing for them. Two events
 * that differ only in exclude_hv count the same user page faults.
 */
PERFABI_CASE(
	.assertion = "attr.exclude_hv on a software event is accepted and has no effect: with and without it the event counts the same user page faults",
	.ref = "perf_event_open(2), exclude_hv: \"the count excludes events that happen in the hypervisor. This is mainly for PMUs that have built-in support for handling this\"; kernel/events/core.c perf_exclude_event()",
	.covers = "attr.exclude_hv",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fa, fb;

	a.disabled = b.disabled = 0;
	a.exclude_hv = 1;
	b.exclude_hv = 0;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_touch_pages(64);
	EXPECT_GE(pa_read_one(fa), 64);
	EXPECT_GE(pa_read_one(fb), 64);
	close(fa);
	close(fb);
}
