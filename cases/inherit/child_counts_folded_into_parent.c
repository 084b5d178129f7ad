#include "perfabi.h"

PERFABI_CASE(
	.assertion = "with inherit set, a forked child's counts are added to the parent's event: after the child exits and is reaped, the parent's value includes the child's page faults",
	.ref = "perf_event_open(2), inherit: \"The inherit bit specifies that this counter should count events of child tasks as well as the task specified\"",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	a.inherit = 1;
	EXPECT_GE(pa_child_faults_delta(&a, 512, false), 512u);
}
