#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD sets a new sample period: the next overflow comes after the new number of events",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD; kernel/events/core.c __perf_event_period()",
	.covers = "ioctl.PERIOD ioctl.REFRESH",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	uint64_t period = 5;
	int fd;

	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	/* one overflow allowed: the event stops at the first period's end */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	pa_touch_pages(32);
	EXPECT_EQ(pa_read_one(fd), 5);
	close(fd);
}
