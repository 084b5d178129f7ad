#include "perfabi.h"

PERFABI_CASE(
	.assertion = "attr.remove_on_exec together with attr.enable_on_exec fails with EINVAL (an event cannot be both enabled and removed at exec)",
	.ref = "kernel/events/core.c perf_copy_attr(): \"if (attr->remove_on_exec && attr->enable_on_exec) goto invalid\" (5.13, 2e498d0a74e5)",
	.covers = "attr.remove_on_exec attr.enable_on_exec errno.EINVAL",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	attr.remove_on_exec = 1;
	attr.enable_on_exec = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
