#include "perfabi.h"

/* clockid is read only when use_clockid is set; an invalid id is ignored. */
PERFABI_CASE(
	.assertion = "without use_clockid, clockid is ignored: an id that is no clock is accepted",
	.ref = "perf_event_open(2), clockid: \"If use_clockid is set, then this field selects which internal Linux timer to use\"; kernel/events/core.c perf_event_open(): if (attr.use_clockid) perf_event_set_clock()",
	.covers = "attr.clockid attr.use_clockid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.use_clockid = 0;
	attr.clockid = 12345;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
