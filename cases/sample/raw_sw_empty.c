#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_RAW on a software event that has no raw data gives an empty payload: {u32 size = 4, 4 zero bytes}, keeping the record 8-byte aligned",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"size, data[size]: If PERF_SAMPLE_RAW is enabled, then a 32-bit value indicating size is included followed by an array of 8-bit values of length size. The values are padded with 0 to have 64-bit alignment\"; kernel/events/core.c perf_output_sample() (no data->raw)",
	.covers = "sample.RAW",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	uint32_t word;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.var.raw_size, 4u);
	memcpy(&word, s.raw, sizeof(word));
	EXPECT_EQ(word, 0u);
}
