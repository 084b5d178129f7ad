#include "perfabi.h"

/* One thing wrong: the dump size. The rest of the attr is a valid user-stack
 * sampling event on an architecture that can dump user stacks. */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_STACK_USER with sample_stack_user 65536, a multiple of 8 but not below USHRT_MAX fails with EINVAL",
	.ref = "perf_event_open(2), sample_stack_user; kernel/events/core.c perf_copy_attr(): \"attr->sample_stack_user >= USHRT_MAX\" -> -EINVAL",
	.covers = "attr.sample_stack_user sample.STACK_USER errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);

	if (!pa_regs_valid_mask())
		pa_skip("not known whether this architecture can dump user stacks");
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 65536;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
