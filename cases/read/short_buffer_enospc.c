#include "perfabi.h"

PERFABI_CASE(
	.assertion = "read() with a buffer one byte smaller than the read_format layout fails with ENOSPC; the exact size, or larger, succeeds and returns the layout size",
	.ref = "perf_event_open(2), Reading results: \"If you attempt to read into a buffer that is not big enough to hold the data, the error ENOSPC results\"",
	.covers = "read.ENOSPC attr.read_format",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[8];
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_ERRNO(read(fd, b, 31), ENOSPC);
	EXPECT_ERRNO(read(fd, b, 0), ENOSPC);
	EXPECT_EQ(read(fd, b, 32), 32);
	EXPECT_EQ(read(fd, b, sizeof(b)), 32);
	close(fd);

	attr.read_format = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_ERRNO(read(fd, b, 7), ENOSPC);
	EXPECT_EQ(read(fd, b, 8), 8);
	close(fd);
}
