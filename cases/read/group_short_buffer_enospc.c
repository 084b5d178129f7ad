#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a PERF_FORMAT_GROUP read needs room for every member: one byte short is ENOSPC, and the needed size grows as siblings join",
	.ref = "perf_event_open(2), Reading results (ENOSPC); kernel/events/core.c perf_read(): count < event->read_size",
	.covers = "read.ENOSPC read_format.GROUP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[16];
	int fd[3];

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	/* nr, time_enabled, value */
	EXPECT_ERRNO(read(fd[0], b, 23), ENOSPC);
	EXPECT_EQ(read(fd[0], b, 24), 24);
	attr.disabled = 0;
	fd[1] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	fd[2] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	/* nr, time_enabled, 3 values */
	EXPECT_ERRNO(read(fd[0], b, 24), ENOSPC);
	EXPECT_ERRNO(read(fd[0], b, 39), ENOSPC);
	EXPECT_ERRNO(read(fd[1], b, 39), ENOSPC);
	EXPECT_EQ(read(fd[0], b, 40), 40);
	EXPECT_EQ(b[0], 3);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
