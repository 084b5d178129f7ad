#include "perfabi.h"
#include <sys/prctl.h>

PERFABI_CASE(
	.assertion = "prctl(PR_TASK_PERF_EVENTS_DISABLE) stops every counter the calling process opened; PR_TASK_PERF_EVENTS_ENABLE starts them again",
	.ref = "perf_event_open(2), \"A process can enable or disable all currently open event groups using prctl(2) PR_TASK_PERF_EVENTS_ENABLE and PR_TASK_PERF_EVENTS_DISABLE\"",
	.covers = "prctl.TASK_PERF_EVENTS_DISABLE prctl.TASK_PERF_EVENTS_ENABLE",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int want = pa_expected_errno(PA_NEED_SELF);
	uint64_t a0, a1, b0, b1;
	int fa, fb;

	attr.disabled = 0;
	fa = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	fb = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	a0 = pa_read_one(fa);
	b0 = pa_read_one(fb);
	pa_touch_pages(64);
	a1 = pa_read_one(fa);
	b1 = pa_read_one(fb);
	EXPECT_EQ(a1, a0);
	EXPECT_EQ(b1, b0);
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	pa_touch_pages(64);
	EXPECT_GE(pa_read_one(fa), a1 + 64);
	EXPECT_GE(pa_read_one(fb), b1 + 64);
	close(fa);
	close(fb);
}
