#include "perfabi.h"

#include <time.h>

PERFABI_CASE(
	.assertion = "use_clockid with clockid CLOCK_MONOTONIC is accepted",
	.ref = "perf_event_open(2), clockid: \"CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME, and CLOCK_TAI currently supported\"; kernel/events/core.c perf_event_set_clock()",
	.covers = "attr.clockid attr.use_clockid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
