#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_DISABLE on an event that is already disabled succeeds and changes nothing: the count and time_enabled stay frozen, and a later PERF_EVENT_IOC_ENABLE counts on from the frozen value",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_DISABLE; kernel/events/core.c _perf_event_disable(): an event already in state OFF (or ERROR) is left as it is",
	.covers = "ioctl.DISABLE read_format.TOTAL_TIME_ENABLED",
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
	pa_work_cpu_ms(2);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, a, 2);
	EXPECT_EQ(a[0], 8);
	EXPECT_GT(a[1], 0);

	/* again, on the disabled event: a no-op that enables nothing */
	EXPECT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_touch_pages(8);
	pa_work_cpu_ms(2);
	pa_read_u64(fd, b, 2);
	EXPECT_EQ(b[0], 8);
	EXPECT_EQ(b[1], a[1]);	/* no time passes while disabled */

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(4);
	pa_read_u64(fd, b, 2);
	EXPECT_EQ(b[0], 12);
	close(fd);
}
