#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_WEIGHT and PERF_SAMPLE_WEIGHT_STRUCT together are rejected with EINVAL (before 5.12 WEIGHT_STRUCT is an unknown bit: EINVAL too)",
	.ref = "kernel/events/core.c perf_copy_attr(): \"if ((attr->sample_type & PERF_SAMPLE_WEIGHT) && (attr->sample_type & PERF_SAMPLE_WEIGHT_STRUCT)) return -EINVAL\" (5.12, 2a6c6b7d7ad3)",
	.covers = "sample.WEIGHT sample.WEIGHT_STRUCT errno.EINVAL",
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);

	attr.sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
