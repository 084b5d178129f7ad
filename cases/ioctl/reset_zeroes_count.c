#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET sets the event count to zero, on a running event as on a stopped one, and counting goes on from zero; it does not reset time_enabled or time_running",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"This resets only the counts; there is no way to reset the multiplexing time_enabled or time_running values\"",
	.covers = "ioctl.RESET read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t a[3], b[3], warm;	/* {value, time_enabled, time_running} */
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack and the vDSO): the page faults counted are
	 * then exactly the pages touched */
	pa_touch_pages(1);
	pa_work_cpu_ms(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &warm));
	pa_read_u64(fd, a, 3);
	ASSERT_EQ(a[0], 0);

	/* running */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	pa_work_cpu_ms(5);	/* the times advance, however coarse the clock */
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 16);
	ASSERT_GT(a[1], 0);
	ASSERT_GT(a[2], 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_read_u64(fd, b, 3);
	EXPECT_EQ(b[0], 0);
	EXPECT_GE(b[1], a[1]);	/* running: the times go on, from where they were */
	EXPECT_GE(b[2], a[2]);
	pa_touch_pages(8);
	pa_work_cpu_ms(5);
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 8);	/* counted on from zero */
	EXPECT_GT(a[1], b[1]);

	/* stopped */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 8);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_read_u64(fd, b, 3);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(b[1], a[1]);	/* disabled: times frozen, not reset */
	EXPECT_EQ(b[2], a[2]);
	close(fd);
}
