#include "perfabi.h"

/*
 * clockid is read only when use_clockid is set; an invalid id is ignored:
 * the open succeeds and the event counts exactly like one with clockid 0,
 * 64 page faults for 64 fresh pages (exact once the measured path has run
 * once).
 */
PERFABI_CASE(
	.assertion = "without use_clockid, clockid is ignored: an id that is no clock is accepted, and the event counts exactly like the same event with clockid 0 (64 page faults for 64 touched pages)",
	.ref = "perf_event_open(2), clockid: \"If use_clockid is set, then this field selects which internal Linux timer to use\"; kernel/events/core.c perf_event_open(): if (attr.use_clockid) perf_event_set_clock()",
	.covers = "attr.clockid attr.use_clockid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fa, fb;

	a.use_clockid = 0;
	a.clockid = 12345;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_count_over(fa, pa_work_pages, 1);	/* warm up the measured path */
	EXPECT_EQ(pa_count_over(fa, pa_work_pages, 64), 64);
	EXPECT_EQ(pa_count_over(fb, pa_work_pages, 64), 64);
	close(fa);
	close(fb);
}
