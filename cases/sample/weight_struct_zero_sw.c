#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_WEIGHT_STRUCT is accepted on a software event and fills the 64-bit weight slot (var1_dw, var2_w, var3_w) with zeros",
	.ref = "perf_event_open(2)/perf_event.h union perf_sample_weight (5.12, 2a6c6b7d7ad3): \"weight ... if PERF_SAMPLE_WEIGHT || PERF_SAMPLE_WEIGHT_STRUCT\"",
	.covers = "sample.WEIGHT_STRUCT",
	.min_kernel = "5.12",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_WEIGHT_STRUCT;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.weight, 0u);
}
