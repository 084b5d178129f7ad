#include "perfabi.h"

/* The first sample_type bit the running kernel does not know. */
static uint64_t first_unknown_bit(void)
{
	static const struct { const char *since; uint64_t max; } t[] = {
		{ "5.12", PERF_SAMPLE_WEIGHT_STRUCT << 1 },
		{ "5.11", PERF_SAMPLE_CODE_PAGE_SIZE << 1 },
		{ "5.7", PERF_SAMPLE_CGROUP << 1 },
		{ "5.5", PERF_SAMPLE_AUX << 1 },
		{ "4.13", PERF_SAMPLE_PHYS_ADDR << 1 },
		{ "3.19", PERF_SAMPLE_REGS_INTR << 1 },
		{ "3.13", PERF_SAMPLE_TRANSACTION << 1 },
		{ "3.12", PERF_SAMPLE_IDENTIFIER << 1 },
		{ "3.10", PERF_SAMPLE_DATA_SRC << 1 },
		{ "3.7", PERF_SAMPLE_STACK_USER << 1 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (pa_kernel_at_least(t[i].since))
			return t[i].max;
	return PERF_SAMPLE_BRANCH_STACK << 1;
}

PERFABI_CASE(
	.assertion = "a sample_type bit at or above PERF_SAMPLE_MAX of the running kernel is rejected with EINVAL (sample_type out of range)",
	.ref = "perf_event_open(2), EINVAL: \"sample_type out of range\"; kernel/events/core.c perf_copy_attr(): attr->sample_type & ~(PERF_SAMPLE_MAX-1)",
	.covers = "attr.sample_type errno.EINVAL",
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	uint64_t bit = first_unknown_bit();

	pa_diag("first unknown sample_type bit: %#llx", (unsigned long long)bit);
	attr.sample_type = PERF_SAMPLE_IP | bit;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
	attr.sample_type = PERF_SAMPLE_IP | 1ULL << 63;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
