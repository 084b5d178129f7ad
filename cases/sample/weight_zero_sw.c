#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_WEIGHT is accepted on a software event and adds a u64 weight the PMU does not fill: 0",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"weight: If PERF_SAMPLE_WEIGHT is enabled, then a 64-bit value provided by the hardware is recorded\"; kernel/events/core.c perf_sample_data_init() zeroes weight",
	.covers = "sample.WEIGHT",
	.min_kernel = "3.10",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_WEIGHT;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.weight, 0u);
}
