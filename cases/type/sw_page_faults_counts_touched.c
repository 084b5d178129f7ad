#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_PAGE_FAULTS counts page faults: touching 64 fresh "
		     "anonymous pages adds exactly 64 (the measured path run once before)",
	.ref = "perf_event_open(2), PERF_TYPE_SOFTWARE: PERF_COUNT_SW_PAGE_FAULTS",
	.covers = "sw.PAGE_FAULTS type.SOFTWARE attr.config",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	pa_count_over(fd, pa_work_pages, 1);	/* the measured path faults in once */
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
}
