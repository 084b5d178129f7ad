#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "attr.disabled: the event starts off and counts nothing (value and time_enabled 0) until PERF_EVENT_IOC_ENABLE; then it counts the page faults made",
	.ref = "perf_event_open(2), disabled: \"The disabled bit specifies whether the counter starts out disabled or enabled. If disabled, the event can later be enabled by ioctl(2), prctl(2), or enable_on_exec\"",
	.covers = "attr.disabled ioctl.ENABLE",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v[2];
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_touch_pages(32);
	pa_read_u64(fd, v, 2);
	EXPECT_EQ(v[0], 0);
	EXPECT_EQ(v[1], 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(32);
	pa_work_cpu_ms(5);	/* time_enabled advances, however coarse the clock */
	pa_read_u64(fd, v, 2);
	EXPECT_GE(v[0], 32);
	EXPECT_GT(v[1], 0);
	close(fd);
}
