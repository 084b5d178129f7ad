#include "perfabi.h"

PERFABI_CASE(
	.assertion = "the PMUs with fixed type numbers publish them in sysfs: "
		     "software is PERF_TYPE_SOFTWARE (1), tracepoint "
		     "PERF_TYPE_TRACEPOINT (2), breakpoint PERF_TYPE_BREAKPOINT (5)",
	.ref = "perf_event_open(2), type: \"/sys/bus/event_source/devices ... a "
	       "type file whose content is an integer that can be used in the "
	       "type field\"; kernel/events/core.c perf_pmu_register() calls",
	.covers = "attr.type type.SOFTWARE type.TRACEPOINT type.BREAKPOINT",
	.pmu = "software",
) {
	EXPECT_EQ(pa_pmu_type("software"), PERF_TYPE_SOFTWARE);
	if (pa_pmu_type("tracepoint") >= 0)
		EXPECT_EQ(pa_pmu_type("tracepoint"), PERF_TYPE_TRACEPOINT);
	else
		pa_diag("no tracepoint PMU (CONFIG_EVENT_TRACING off)");
	if (pa_pmu_type("breakpoint") >= 0)
		EXPECT_EQ(pa_pmu_type("breakpoint"), PERF_TYPE_BREAKPOINT);
	else
		pa_diag("no breakpoint PMU (CONFIG_HAVE_HW_BREAKPOINT off)");
}
