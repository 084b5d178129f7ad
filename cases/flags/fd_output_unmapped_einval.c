#include "perfabi.h"

/*
 * perf_event_set_output() takes group_fd's ring buffer; an event that was
 * never mmapped has none, so there is nothing to redirect into: EINVAL.
 */
PERFABI_CASE(
	.assertion = "PERF_FLAG_FD_OUTPUT with group_fd naming an event that has no mapped ring buffer fails with EINVAL",
	.ref = "perf_event_open(2), flags: PERF_FLAG_FD_OUTPUT; kernel/events/core.c perf_event_set_output(): no rb on the output event -> -EINVAL",
	.covers = "flag.FD_OUTPUT errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_DUMMY, 1);
	struct perf_event_attr b = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fa = ASSERT_OPEN(&a, 0, -1, -1, 0);

	EXPECT_OPEN_FAIL(&b, 0, -1, fa, PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP, EINVAL);
	EXPECT_OPEN_FAIL(&b, 0, -1, fa, PERF_FLAG_FD_OUTPUT, EINVAL);
}
