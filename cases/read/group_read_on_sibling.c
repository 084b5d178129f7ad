#include "perfabi.h"

PERFABI_CASE(
	.assertion = "read() on a sibling whose read_format has PERF_FORMAT_GROUP returns the whole group, leader first, not just the sibling",
	.ref = "perf_event_open(2), read_format: PERF_FORMAT_GROUP \"Allows all counter values in an event group to be read with one read\"; kernel/events/core.c perf_read_group() reads event->group_leader",
	.covers = "read_format.GROUP read_format.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[16] = { 0 }, id[3];
	int fd[3];

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	attr.disabled = 0;
	fd[1] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	fd[2] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	for (int i = 0; i < 3; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
	ASSERT_EQ(read(fd[2], b, sizeof(b)), 8 + 3 * 16);
	EXPECT_EQ(b[0], 3);
	EXPECT_EQ(b[2], id[0]);
	EXPECT_EQ(b[4], id[1]);
	EXPECT_EQ(b[6], id[2]);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
