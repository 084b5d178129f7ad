#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET sets the event count to zero; it does not reset time_enabled or time_running",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"This resets only the counts; there is no way to reset the multiplexing time_enabled or time_running values\"",
	.covers = "ioctl.RESET read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t a[3], b[3];
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	pa_work_cpu_ms(5);	/* time_enabled advances, however coarse the clock */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, a, sizeof(a)), 24);
	EXPECT_GE(a[0], 16);
	ASSERT_GT(a[1], 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(b[1], a[1]);	/* disabled: times frozen, not reset */
	EXPECT_EQ(b[2], a[2]);
	close(fd);
}
