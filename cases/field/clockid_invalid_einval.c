#include "perfabi.h"

/* 12345 names no clock at all (not even a dynamic one: those are < 0). */
PERFABI_CASE(
	.assertion = "use_clockid with a clockid that is not a clock fails with EINVAL",
	.ref = "perf_event_open(2), clockid; kernel/events/core.c perf_event_set_clock(): default -> -EINVAL",
	.covers = "attr.clockid attr.use_clockid errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	attr.use_clockid = 1;
	attr.clockid = 12345;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
