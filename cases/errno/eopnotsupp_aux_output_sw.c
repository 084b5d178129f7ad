#include "perfabi.h"

PERFABI_CASE(
	.assertion = "attr.aux_output on an event of a PMU that cannot produce AUX output (software) fails with EOPNOTSUPP",
	.ref = "perf_event_open(2), EOPNOTSUPP: \"a requested feature is not supported by the PMU\"; kernel/events/core.c perf_event_alloc(): aux_output && !(pmu->capabilities & PERF_PMU_CAP_AUX_OUTPUT) -> -EOPNOTSUPP (5.4, ab43762ef010)",
	.covers = "errno.EOPNOTSUPP attr.aux_output",
	.min_kernel = "5.4",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	close(ASSERT_OPEN(&attr, 0, -1, -1, 0));
	attr.aux_output = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EOPNOTSUPP);
}
