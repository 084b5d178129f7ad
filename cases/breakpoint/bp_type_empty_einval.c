#include "perfabi.h"

static volatile uint64_t target;

PERFABI_CASE(
	.assertion = "bp_type HW_BREAKPOINT_EMPTY (0) is rejected with EINVAL",
	.ref = "perf_event_open(2), bp_type HW_BREAKPOINT_EMPTY \"No breakpoint\"; kernel/events/hw_breakpoint.c hw_breakpoint_parse()",
	.covers = "attr.bp_type errno.EINVAL",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_EMPTY, (const void *)&target, HW_BREAKPOINT_LEN_8);

	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, EINVAL);
}
