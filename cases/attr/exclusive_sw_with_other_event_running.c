#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * exclusive asks that no other group share the PMU while this one is on.
 * The rule is enforced for hardware counters only: group_can_go_on() lets
 * software groups on unconditionally, before it looks at cpc->exclusive. So
 * an exclusive software event and a plain software event of the same task
 * both run all the time.
 */
PERFABI_CASE(
	.assertion = "attr.exclusive on a software event is accepted and does not keep a plain software event of the same task off the CPU: both have time_running == time_enabled and count",
	.ref = "perf_event_open(2), exclusive: \"when this counter's group is on the CPU, it should be the only group using the CPU's counters\"; kernel/events/core.c group_can_go_on() (PERF_EV_CAP_SOFTWARE checked first)",
	.covers = "attr.exclusive read_format.TOTAL_TIME_RUNNING",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t va[3], vb[3];
	int fa, fb;

	a.exclusive = 1;
	a.read_format = b.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
					PERF_FORMAT_TOTAL_TIME_RUNNING;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fa, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(32);
	pa_work_cpu_ms(5);	/* time_enabled advances, however coarse the clock */
	ASSERT_OK(ioctl(fa, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fb, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fa, va, 3);
	pa_read_u64(fb, vb, 3);
	EXPECT_GE(va[0], 32);
	EXPECT_GE(vb[0], 32);
	EXPECT_GT(va[1], 0);
	EXPECT_EQ(va[2], va[1]);
	EXPECT_EQ(vb[2], vb[1]);
	close(fa);
	close(fb);
}
