#include "perfabi.h"

PERFABI_CASE(
	.assertion = "without inherit, an event on the calling thread does not count another thread of the process",
	.ref = "perf_event_open(2), pid == 0 measures the calling thread; inherit clear",
	.covers = "attr.inherit arg.pid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	/* thread stack set-up faults in the caller are few */
	EXPECT_LT(pa_child_faults_delta(&a, 512, true), 128u);
}
