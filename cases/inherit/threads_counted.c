#include "perfabi.h"

PERFABI_CASE(
	.assertion = "with inherit set, threads created after the event was opened are counted too: the thread's page faults show up in the event once it is joined",
	.ref = "perf_event_open(2), inherit: child tasks include threads (CLONE_THREAD)",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	a.inherit = 1;
	EXPECT_GE(pa_child_faults_delta(&a, 512, true), 512u);
}
