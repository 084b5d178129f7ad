#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_READ on an inherited event: EINVAL before 6.12; since 6.12 it is accepted when PERF_SAMPLE_TID is also set (per-thread values) and still EINVAL without TID",
	.ref = "kernel/events/core.c perf_event_alloc(): \"We do not support PERF_SAMPLE_READ on inherited events unless PERF_SAMPLE_TID is also selected\" (\"perf: Support PERF_SAMPLE_READ with inherit\", 6.12)",
	.covers = "sample.READ attr.inherit errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fd;

	attr.inherit = 1;
	attr.sample_type = PERF_SAMPLE_READ;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
	attr.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID;
	if (pa_since("6.12", "inherit with PERF_SAMPLE_READ allowed together with PERF_SAMPLE_TID")) {
		fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
		if (fd >= 0)
			close(fd);
	} else {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
	}
}
