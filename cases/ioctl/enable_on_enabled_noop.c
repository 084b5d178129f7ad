#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_ENABLE on an event that is already enabled succeeds and changes nothing: the count is neither reset nor disturbed and goes on counting every event, and time_enabled is not restarted",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_ENABLE; kernel/events/core.c _perf_event_enable(): an event already in state INACTIVE or ACTIVE is left as it is",
	.covers = "ioctl.ENABLE read_format.TOTAL_TIME_ENABLED",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t a[2], b[2], warm;	/* {value, time_enabled} */
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack and the vDSO): the page faults counted are
	 * then exactly the pages touched */
	pa_touch_pages(1);
	pa_work_cpu_ms(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &warm));
	pa_read_u64(fd, a, 2);
	ASSERT_EQ(a[0], 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	pa_work_cpu_ms(2);	/* time_enabled advances, however coarse the clock */
	pa_read_u64(fd, a, 2);
	EXPECT_EQ(a[0], 8);
	EXPECT_GT(a[1], 0);

	/* again, on the enabled event: a no-op */
	EXPECT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_read_u64(fd, b, 2);
	EXPECT_EQ(b[0], 8);
	EXPECT_GE(b[1], a[1]);	/* not restarted from 0 */
	pa_touch_pages(8);
	pa_read_u64(fd, b, 2);
	EXPECT_EQ(b[0], 16);
	close(fd);
}
