#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a non-zero __reserved_2 fails with EINVAL",
	.ref = "kernel/events/core.c perf_copy_attr(): \"if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3) return -EINVAL\"",
	.covers = "attr.__reserved_2 errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	attr.__reserved_2 = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
