#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * exclude_host/exclude_guest are for PMUs that count inside and outside
 * KVM guests (x86 hardware PMUs). Software events ignore them:
 * perf_swevent_init() accepts them and perf_exclude_event() only looks at
 * user/kernel mode. An event with exclude_host counts this task's user page
 * faults like one without: in one group (the same interval) both count the
 * 64 touched pages, exactly: the workload ran once before ENABLE, so its
 * code and stack are mapped and each fresh page's first store is its only
 * fault.
 */
PERFABI_CASE(
	.assertion = "attr.exclude_host on a software event is accepted and has no effect on what it counts: in one group with the same event without it, both count the same user page faults (64 touched pages: exactly 64)",
	.ref = "perf_event_open(2), exclude_host (since 3.2): host/guest separation for processes running KVM guests, \"Currently, this functionality is x86 only\" (x86 hardware PMUs); kernel/events/core.c perf_swevent_init(), perf_exclude_event() (user/kernel mode only)",
	.covers = "attr.exclude_host",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr x = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr c = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t vx, vc;
	int fx, fc;

	x.exclude_host = 1;
	c.disabled = 0;		/* goes with the leader */
	fx = ASSERT_OPEN(&x, 0, -1, -1, 0);
	fc = ASSERT_OPEN(&c, 0, -1, fx, 0);
	pa_touch_pages(1);	/* fault in the code first */
	ASSERT_OK(ioctl(fx, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(64);
	ASSERT_OK(ioctl(fx, PERF_EVENT_IOC_DISABLE, 0));
	vx = pa_read_one(fx);
	vc = pa_read_one(fc);
	pa_diag("exclude_host: %llu, without: %llu", (unsigned long long)vx,
		(unsigned long long)vc);
	EXPECT_EQ(vx, vc);
	EXPECT_EQ(vx, 64);
	close(fc);
	close(fx);
}
