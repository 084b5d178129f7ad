#include "perfabi.h"

PERFABI_CASE(
	.assertion = "an event opened with disabled set counts nothing until PERF_EVENT_IOC_ENABLE, then counts",
	.ref = "perf_event_open(2), disabled; PERF_EVENT_IOC_ENABLE",
	.covers = "ioctl.ENABLE attr.disabled",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	uint64_t warm;

	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack): the page faults counted are then exactly
	 * the pages touched */
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &warm));
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd), 16);
	close(fd);
}
