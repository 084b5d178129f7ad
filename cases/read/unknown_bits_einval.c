#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a read_format bit beyond the known PERF_FORMAT_* flags is rejected with EINVAL (bit 5 and up; bit 4 too before 6.0)",
	.ref = "perf_event_open(2), EINVAL; kernel/events/core.c perf_copy_attr(): read_format & ~(PERF_FORMAT_MAX-1)",
	.covers = "attr.read_format errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.read_format = 1ULL << 5;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
	attr.read_format = 1ULL << 63;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | (1ULL << 5);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
	/* the highest known bit still opens */
	attr.read_format = pa_since("6.0", "PERF_FORMAT_LOST") ? PERF_FORMAT_LOST
							   : PERF_FORMAT_GROUP;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
