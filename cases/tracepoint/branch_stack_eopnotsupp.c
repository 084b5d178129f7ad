#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a tracepoint event with PERF_SAMPLE_BRANCH_STACK fails with EOPNOTSUPP (no branch sampling for tracepoints)",
	.ref = "kernel/events/core.c perf_tp_event_init(): has_branch_stack() -> -EOPNOTSUPP",
	.covers = "type.TRACEPOINT sample.BRANCH_STACK errno.EOPNOTSUPP",
	.tracefs = true,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
	int want = pa_expected_errno(PA_NEED_SELF);

	attr.exclude_kernel = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want ? want : EOPNOTSUPP);
}
