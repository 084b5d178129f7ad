#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * GRP-02: an event opened with group_fd = -1 is a group with one member.
 * Its PERF_FORMAT_GROUP | PERF_FORMAT_ID read is exactly 24 bytes: nr = 1,
 * then its own value and id.
 */
#define TOUCHED	16

PERFABI_CASE(
	.assertion = "an event created with group_fd = -1 is a group of one member: its PERF_FORMAT_GROUP | PERF_FORMAT_ID read returns exactly nr = 1, its value and its own id (24 bytes)",
	.ref = "perf_event_open(2), group_fd: \"A single event on its own is created with group_fd = -1 and is considered to be a group with only 1 member\"",
	.covers = "arg.group_fd read_format.GROUP read_format.ID ioctl.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[8] = { 0 }, id;
	int fd;

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));

	pa_touch_pages(1);	/* warm up the measured path */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	EXPECT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[0], 1);
	EXPECT_EQ(b[1], TOUCHED);
	EXPECT_EQ(b[2], id);
	EXPECT_EQ(b[3], 0);	/* nothing beyond the one entry */
	close(fd);
}
