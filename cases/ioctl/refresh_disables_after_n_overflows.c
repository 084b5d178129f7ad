#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH(n) on a sampling event enables it for n overflows, after which the event disables itself; another REFRESH re-arms it",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"the event is disabled after the given number of overflows\"",
	.covers = "ioctl.REFRESH",
	.probe = pa_probe_self_perf,
) {
	/* sample_period 1: every page fault is an overflow */
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fd;

	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 3));
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd), 3);
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd), 3);	/* stays disabled */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd), 5);
	close(fd);
}
