#include "perfabi.h"

PERFABI_CASE(
	.assertion = "after PERF_EVENT_IOC_DISABLE the event stops counting: its value stays frozen",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_DISABLE",
	.covers = "ioctl.DISABLE",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v;
	int fd;

	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack): the page faults counted are then exactly
	 * the pages touched (here on a disabled event) */
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &v));
	ASSERT_EQ(pa_read_one(fd), 0);
	pa_touch_pages(1);
	close(fd);

	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_touch_pages(16);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	v = pa_read_one(fd);
	EXPECT_EQ(v, 16);
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd), v);
	close(fd);
}
