#include "perfabi.h"
#include <sys/prctl.h>

PERFABI_CASE(
	.assertion = "prctl(PR_TASK_PERF_EVENTS_ENABLE) also starts a counter that was opened disabled (attr.disabled = 1): 32 fresh pages touched after it count exactly 32",
	.ref = "perf_event_open(2), prctl PR_TASK_PERF_EVENTS_ENABLE; kernel/events/core.c perf_event_task_enable()",
	.covers = "prctl.TASK_PERF_EVENTS_ENABLE attr.disabled",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int want = pa_expected_errno(PA_NEED_SELF);
	int fd;

	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	/* the measured path once first (prctl, the touches, the read): each
	 * fresh page's first store is then its only fault */
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	pa_touch_pages(8);
	EXPECT_EQ(pa_read_one(fd), 0);
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	pa_touch_pages(32);
	EXPECT_EQ(pa_read_one(fd), 32);
	close(fd);
}
