#include "perfabi.h"

/*
 * branch_sample_type is validated only when PERF_SAMPLE_BRANCH_STACK is in
 * sample_type; otherwise even undefined bits are ignored.
 */
PERFABI_CASE(
	.assertion = "without PERF_SAMPLE_BRANCH_STACK, branch_sample_type is ignored, even with undefined bits set",
	.ref = "perf_event_open(2), branch_sample_type: \"If PERF_SAMPLE_BRANCH_STACK is enabled, then this specifies what branches to include\"; kernel/events/core.c perf_copy_attr()",
	.covers = "attr.branch_sample_type",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	int fd;

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.branch_sample_type = ~0ULL;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
