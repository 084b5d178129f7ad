#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_FORMAT_LOST (Linux 6.0) appends the number of lost samples after the value; older kernels reject the unknown bit with EINVAL",
	.ref = "perf_event_open(2), read_format: PERF_FORMAT_LOST (since Linux 6.0); commit 119a784c8127",
	.covers = "attr.read_format read_format.LOST",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[3] = { 7, 7, 7 };
	int fd;

	attr.read_format = PERF_FORMAT_LOST;
	if (!pa_since("6.0", "PERF_FORMAT_LOST")) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
		return;
	}
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	/* fault in the code the counted part runs, so only fresh pages fault */
	pa_touch_pages(4);
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	EXPECT_EQ(b[0], 4);	/* one fault per page */
	EXPECT_EQ(b[1], 0);	/* a counting event loses nothing */
	close(fd);
}
