#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_FORMAT_ID appends the event's unique id after the value, the same id PERF_EVENT_IOC_ID returns",
	.ref = "perf_event_open(2), read_format: PERF_FORMAT_ID; PERF_EVENT_IOC_ID",
	.covers = "attr.read_format read_format.ID ioctl.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[3] = { 0, 0, 0 }, id = 0, id2 = 0;
	int fd, fd2;

	attr.read_format = PERF_FORMAT_ID;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	fd2 = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_OK(ioctl(fd2, PERF_EVENT_IOC_ID, &id2));
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	EXPECT_EQ(b[1], id);
	EXPECT_NE(id, id2);	/* unique per event */
	ASSERT_EQ(read(fd2, b, sizeof(b)), 16);
	EXPECT_EQ(b[1], id2);
	close(fd);
	close(fd2);
}
