#include "perfabi.h"

/*
 * exclude_host/exclude_guest are for PMUs that count inside and outside
 * KVM guests (x86 hardware PMUs). Software events ignore them:
 * perf_swevent_init() accepts them and perf_exclude_event() only looks at
 * user/kernel mode. An event with exclude_guest counts this task's user page
 * faults like one without.
 */
PERFABI_CASE(
	.assertion = "attr.exclude_guest on a software event is accepted and has no effect on what it counts: user page faults are counted",
	.ref = "perf_event_open(2), exclude_guest (since 3.2): host/guest separation for processes running KVM guests, \"Currently, this functionality is x86 only\" (x86 hardware PMUs); kernel/events/core.c perf_swevent_init(), perf_exclude_event() (user/kernel mode only)",
	.covers = "attr.exclude_guest",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.disabled = 0;
	attr.exclude_guest = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_touch_pages(64);
	EXPECT_GE(pa_read_one(fd), 64);
	close(fd);
}
