#include "perfabi.h"

/*
 * config1 and config2 extend config for PMUs that need it. The software PMU
 * (perf_swevent_init) looks only at config, so arbitrary values there are
 * ignored, not refused: the event counts exactly like one with both zero,
 * 64 page faults for 64 fresh pages (exact once the measured path has run
 * once).
 */
PERFABI_CASE(
	.assertion = "config1 and config2 are ignored by software events: any value is accepted, and the event counts exactly like the same event with both zero (64 page faults for 64 touched pages)",
	.ref = "perf_event_open(2), config1/config2: \"used for setting events that need an extra register or otherwise do not fit in the regular config field\"; kernel/events/core.c perf_swevent_init() reads only attr.config",
	.covers = "attr.config1 attr.config2",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fa, fb;

	a.config1 = ~0ULL;
	a.config2 = 0x5a5a5a5a5a5a5a5aULL;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_count_over(fa, pa_work_pages, 1);	/* warm up the measured path */
	EXPECT_EQ(pa_count_over(fa, pa_work_pages, 64), 64);
	EXPECT_EQ(pa_count_over(fb, pa_work_pages, 64), 64);
	close(fa);
	close(fb);
}
