#include "perfabi.h"

/*
 * A valid user-only branch mask passes perf_copy_attr() (no privilege
 * needed), then the software PMU refuses branch sampling.
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_BRANCH_STACK with a valid user-level branch_sample_type on a software event fails with EOPNOTSUPP",
	.ref = "perf_event_open(2), EOPNOTSUPP: \"branch stacks for software events\" (branch tracing not supported); kernel/events/core.c perf_swevent_init(): has_branch_stack -> -EOPNOTSUPP",
	.covers = "attr.branch_sample_type sample.BRANCH_STACK errno.EOPNOTSUPP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EOPNOTSUPP);
}
