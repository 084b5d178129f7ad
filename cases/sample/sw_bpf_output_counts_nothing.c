#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_BPF_OUTPUT opens as a counting event; without a BPF program writing to it, its count stays 0",
	.ref = "perf_event_open(2), PERF_TYPE_SOFTWARE: PERF_COUNT_SW_BPF_OUTPUT \"used to generate raw sample data from BPF\"",
	.covers = "sw.BPF_OUTPUT attr.config",
	.probe = pa_probe_self_perf,
	.min_kernel = "4.4",
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_BPF_OUTPUT);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	uint64_t n = pa_count_over(fd, pa_work_pages, 64);
	EXPECT_EQ(n, 0);
}
