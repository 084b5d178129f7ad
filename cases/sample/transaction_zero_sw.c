#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_TRANSACTION on a software event adds a u64 transaction word the PMU does not fill: 0",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"txn: If the PERF_SAMPLE_TRANSACTION flag is set, then a 64-bit field is recorded describing the sources of any transactional memory aborts\"; kernel/events/core.c perf_prepare_sample() txn = 0",
	.covers = "sample.TRANSACTION",
	.min_kernel = "3.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TRANSACTION;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.transaction, 0u);
}
