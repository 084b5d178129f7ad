#include "perfabi.h"

/* read_format 0: read() returns exactly one u64, the count. */
PERFABI_CASE(
	.assertion = "with read_format 0, read() returns a single u64: the event's value",
	.ref = "perf_event_open(2), Reading results: \"If none of the PERF_FORMAT_* flags are specified ... u64 value\"",
	.covers = "attr.read_format",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t buf[4] = { 0 };
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	/* fault in the code the counted part runs, so only fresh pages fault */
	pa_touch_pages(32);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(32);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(read(fd, buf, sizeof(buf)), 8);
	EXPECT_EQ(buf[0], 32);	/* one fault per fresh page */
	EXPECT_EQ(buf[1], 0);	/* nothing beyond the one value */
	close(fd);
}
