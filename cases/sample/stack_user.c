#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_STACK_USER gives {size, data[size], dyn_size}: size = sample_stack_user and 0 < dyn_size <= size, the bytes actually copied from the user stack",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"size, data[size], dyn_size: If PERF_SAMPLE_STACK_USER is enabled, then the user stack is recorded ... dyn_size is the amount of data actually dumped (can be less than size)\" (3.7)",
	.covers = "sample.STACK_USER attr.sample_stack_user",
	.min_kernel = "3.7",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 512;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.var.stack_size, 512u);
	EXPECT_GT(s.stack_dyn_size, 0u);
	EXPECT_LE(s.stack_dyn_size, 512u);
}
