#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_CODE_PAGE_SIZE reports the size of the page mapping the sample's ip: a power of two, at least the base page size, for user code",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE code_page_size (5.11, 995f088efebe): \"the size of the page for the code address\"; kernel/events/core.c perf_get_page_size()",
	.covers = "sample.CODE_PAGE_SIZE",
	.min_kernel = "5.11",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CODE_PAGE_SIZE;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	EXPECT_GE(s.code_page_size, (uint64_t)psz);
	EXPECT_EQ(s.code_page_size & (s.code_page_size - 1), 0u);
}
