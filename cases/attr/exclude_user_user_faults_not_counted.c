#include "perfabi.h"

/*
 * A software page-fault event is attributed to the mode of the faulting
 * context (perf_exclude_event() looks at user_mode(regs)). Faults made by
 * touching pages in user space are user-mode events: exclude_user drops
 * them. exclude_kernel is set as well so that any identity may open it; the
 * control event differs only in exclude_user, and counts the 64 touched
 * pages exactly (the workload ran once first, so its code and stack are
 * mapped and each fresh page's first store is its only fault).
 */
PERFABI_CASE(
	.assertion = "attr.exclude_user: page faults taken by user-space accesses are not counted (0), while the same event without exclude_user counts them (64 touched pages: exactly 64)",
	.ref = "perf_event_open(2), exclude_user: \"the count excludes events that happen in user space\"; kernel/events/core.c perf_exclude_event()",
	.covers = "attr.exclude_user",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr x = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr c = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t c0;
	int fx, fc;

	x.disabled = c.disabled = 0;
	x.exclude_user = 1;
	fx = ASSERT_OPEN(&x, 0, -1, -1, 0);
	fc = ASSERT_OPEN(&c, 0, -1, -1, 0);
	pa_touch_pages(1);	/* fault in the code first */
	c0 = pa_read_one(fc);
	pa_touch_pages(64);
	EXPECT_EQ(pa_read_one(fx), 0);
	EXPECT_EQ(pa_read_one(fc) - c0, 64);
	close(fx);
	close(fc);
}
