#include "perfabi.h"

PERFABI_CASE(
	.assertion = "attr.inherit_thread without attr.inherit fails with EINVAL",
	.ref = "kernel/events/core.c perf_copy_attr(): \"if (!attr->inherit && attr->inherit_thread) goto invalid\" (5.13, 2b26f0aa0047); include/uapi/linux/perf_event.h inherit_thread \"children only inherit if cloned with CLONE_THREAD\"",
	.covers = "attr.inherit_thread attr.inherit errno.EINVAL",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	attr.inherit = 0;
	attr.inherit_thread = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
