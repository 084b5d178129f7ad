#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_STACK_USER with sample_stack_user a multiple of 8 below USHRT_MAX (8192) is accepted",
	.ref = "perf_event_open(2), sample_stack_user; kernel/events/core.c perf_copy_attr() stack user size checks",
	.covers = "attr.sample_stack_user sample.STACK_USER",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	int fd;

	if (!pa_regs_valid_mask())
		pa_skip("not known whether this architecture can dump user stacks");
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 8192;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
