#include "perfabi.h"

/*
 * An event opened with disabled = 0 counts from the open on, with no
 * ioctl at all: read right after the open it has counted nothing, and
 * after 32 fresh pages exactly 32 page faults. The open/touch/read path
 * is run once before, with a throw-away event, so that its code and
 * stack are faulted in and the count is exact.
 */
PERFABI_CASE(
	.assertion = "attr.disabled = 0: the event counts from the moment it is opened, without any ioctl: 0 right after the open, then exactly 32 page faults for 32 touched pages",
	.ref = "perf_event_open(2), disabled: \"whether the counter starts out disabled or enabled\"",
	.covers = "attr.disabled",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v0, v1;
	int fd;

	attr.disabled = 0;
	for (int i = 0; i < 2; i++) {	/* 0: warm-up, 1: measured */
		fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
		v0 = pa_read_one(fd);
		pa_touch_pages(i ? 32 : 1);
		v1 = pa_read_one(fd);
		close(fd);
	}
	EXPECT_EQ(v0, 0);
	EXPECT_EQ(v1, 32);
}
