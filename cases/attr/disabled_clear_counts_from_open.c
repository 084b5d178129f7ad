#include "perfabi.h"

PERFABI_CASE(
	.assertion = "attr.disabled = 0: the event counts from the moment it is opened, without any ioctl",
	.ref = "perf_event_open(2), disabled: \"whether the counter starts out disabled or enabled\"",
	.covers = "attr.disabled",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.disabled = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_touch_pages(32);
	EXPECT_GE(pa_read_one(fd), 32);
	close(fd);
}
