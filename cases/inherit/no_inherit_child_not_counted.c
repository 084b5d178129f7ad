#include "perfabi.h"

PERFABI_CASE(
	.assertion = "without inherit, a forked child's events are not counted by the parent's event",
	.ref = "perf_event_open(2), inherit (clear: only the monitored task counts)",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	a.inherit = 0;
	/* the parent's own copy-on-write faults after fork are a handful */
	EXPECT_LT(pa_child_faults_delta(&a, 512, false), 128u);
}
