#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * Software events are never in a hypervisor: perf_exclude_event() looks at
 * user/kernel mode only, so exclude_hv changes nothing for them. Two events
 * that differ only in exclude_hv, in one group (so they count over exactly
 * the same interval), count the same user page faults: 64 touched pages,
 * exactly: the workload ran once before ENABLE, so its code and stack are
 * mapped and each fresh page's first store is its only fault.
 */
PERFABI_CASE(
	.assertion = "attr.exclude_hv on a software event is accepted and has no effect: with and without it, in one group, the event counts the same user page faults (64 touched pages: exactly 64)",
	.ref = "perf_event_open(2), exclude_hv: \"the count excludes events that happen in the hypervisor. This is mainly for PMUs that have built-in support for handling this\"; kernel/events/core.c perf_exclude_event()",
	.covers = "attr.exclude_hv",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t va, vb;
	int fa, fb;

	a.exclude_hv = 1;
	b.exclude_hv = 0;
	b.disabled = 0;		/* goes with the leader */
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, fa, 0);
	pa_touch_pages(1);	/* fault in the code first */
	ASSERT_OK(ioctl(fa, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(64);
	ASSERT_OK(ioctl(fa, PERF_EVENT_IOC_DISABLE, 0));
	va = pa_read_one(fa);
	vb = pa_read_one(fb);
	pa_diag("exclude_hv: %llu, without: %llu", (unsigned long long)va,
		(unsigned long long)vb);
	EXPECT_EQ(va, vb);
	EXPECT_EQ(va, 64);
	close(fb);
	close(fa);
}
