#include "perfabi.h"

/*
 * aux_watermark is only read when an AUX area is mapped (rb_alloc_aux());
 * perf_event_open() does not validate it, so a PMU without AUX support
 * (software) accepts any value at open, and the event counts exactly like
 * one without it: 64 page faults for 64 fresh pages (exact once the
 * measured path has run once).
 */
PERFABI_CASE(
	.assertion = "aux_watermark is not checked at open: a software event (no AUX area) accepts a non-zero value, and counts exactly like the same event without it (64 page faults for 64 touched pages)",
	.ref = "include/uapi/linux/perf_event.h aux_watermark (4.1, VER5); kernel/events/core.c: aux_watermark is used only by perf_mmap() -> rb_alloc_aux()",
	.covers = "attr.aux_watermark size.VER5",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fa, fb;

	a.aux_watermark = 4096;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_count_over(fa, pa_work_pages, 1);	/* warm up the measured path */
	EXPECT_EQ(pa_count_over(fa, pa_work_pages, 64), 64);
	EXPECT_EQ(pa_count_over(fb, pa_work_pages, 64), 64);
	close(fa);
	close(fb);
}
