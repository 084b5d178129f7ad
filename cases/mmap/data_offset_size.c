#include "perfabi.h"

PERFABI_CASE(
	.assertion = "the control page describes the data area: data_offset = one page (right after the control page) and data_size = the 2^n data pages mapped",
	.ref = "perf_event_open(2), MMAP layout: data_offset, data_size (4.1): \"where the buffer starts\" / \"the size of the buffer\"",
	.covers = "mmap.data_offset",
	.min_kernel = "4.1",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	EXPECT_EQ(r.page->data_offset, (uint64_t)psz);
	EXPECT_EQ(r.page->data_size, (uint64_t)psz * 8);
}
