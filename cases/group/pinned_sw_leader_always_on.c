#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * time_enabled covers the 5 ms of CPU time the task spent while the group
 * was enabled (at least PA_WORKED_NS_MIN of it); the page-fault counts are exact (the measured
 * path is faulted in before the ENABLE).
 */
#define TOUCHED	8
#define WORK_MS	5

PERFABI_CASE(
	.assertion = "a pinned group leader on the software PMU, with a sibling, opens and is always on the CPU while enabled: time_running equals time_enabled and both members count every page fault",
	.ref = "perf_event_open(2), pinned: \"the counter should always be on the CPU if at all possible\"; kernel/events/core.c group_can_go_on(): software groups can always go on",
	.covers = "arg.group_fd attr.pinned",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v[5];		/* nr, enabled, running, value, value */
	int leader;

	l.pinned = 1;
	l.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	s.disabled = 0;
	leader = ASSERT_OPEN(&l, 0, -1, -1, 0);
	ASSERT_OPEN(&s, 0, -1, leader, 0);

	pa_touch_pages(1);	/* warm up the measured path */
	pa_work_cpu_ms(1);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	pa_work_cpu_ms(WORK_MS);	/* time_enabled advances, however coarse the clock */
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(leader, v, 5);
	EXPECT_EQ(v[0], 2);
	EXPECT_GE(v[1], PA_WORKED_NS_MIN(WORK_MS));
	EXPECT_EQ(v[2], v[1]);
	EXPECT_EQ(v[3], TOUCHED);
	EXPECT_EQ(v[4], TOUCHED);
}
