#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a breakpoint on a kernel address with exclude_kernel set is EINVAL for every identity (it could never fire)",
	.ref = "kernel/events/hw_breakpoint.c hw_breakpoint_parse(): kernel address && attr->exclude_kernel -> -EINVAL",
	.covers = "type.BREAKPOINT attr.bp_addr attr.exclude_kernel errno.EINVAL",
	.pmu = "breakpoint",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_bp_attr(HW_BREAKPOINT_W, NULL, HW_BREAKPOINT_LEN_4);
	int want = pa_expected_errno(PA_NEED_SELF);

	attr.bp_addr = pa_kernel_text_addr();
	attr.exclude_kernel = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want ? want : EINVAL);
}
