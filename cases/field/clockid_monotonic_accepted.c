#include "perfabi.h"

#include <time.h>

/*
 * clockid only chooses the clock of the timestamps; the event still counts
 * as usual: 64 page faults for 64 fresh pages (exact once the measured
 * path has run once).
 */
PERFABI_CASE(
	.assertion = "use_clockid with clockid CLOCK_MONOTONIC is accepted, and the event counts as usual (64 page faults for 64 touched pages)",
	.ref = "perf_event_open(2), clockid: \"CLOCK_MONOTONIC, CLOCK_MONOTONIC_RAW, CLOCK_REALTIME, CLOCK_BOOTTIME, and CLOCK_TAI currently supported\"; kernel/events/core.c perf_event_set_clock()",
	.covers = "attr.clockid attr.use_clockid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_count_over(fd, pa_work_pages, 1);	/* warm up the measured path */
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
	close(fd);
}
