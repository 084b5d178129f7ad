#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_DUMMY opens as a counting event; it counts nothing (it exists to collect side-band records), so its count stays 0 over 64 page faults",
	.ref = "perf_event_open(2), PERF_TYPE_SOFTWARE: PERF_COUNT_SW_DUMMY \"a placeholder event that counts nothing\"",
	.covers = "sw.DUMMY attr.config",
	.probe = pa_probe_self_perf,
	.min_kernel = "3.12",
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	uint64_t n = pa_count_over(fd, pa_work_pages, 64);
	EXPECT_EQ(n, 0);
}
