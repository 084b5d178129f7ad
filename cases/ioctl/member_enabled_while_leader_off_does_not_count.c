#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * GRP-24: the member is opened disabled and enabled by its own ioctl
 * while the leader is still off. It is then enabled (the ioctl succeeds)
 * but its group is not: it counts nothing and, its effective state being
 * the leader's OFF (__perf_effective_state()), accrues no time_enabled.
 * Once the leader alone is enabled, the member counts with it: so the
 * earlier ioctl did enable it (nothing else touched the member).
 */
#define WHILE_OFF	16
#define WHILE_ON	8

PERFABI_CASE(
	.assertion = "a group member enabled with PERF_EVENT_IOC_ENABLE while its leader is disabled does not count (value 0, time_enabled 0) until the leader is enabled; then it counts exactly what the leader counts",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_DISABLE: \"while the group leader is disabled, none of the counters in the group will count\"; kernel/events/core.c __perf_event_enable(): \"If the event is in a group and isn't the group leader, then don't put it on unless the group is on\"",
	.covers = "ioctl.ENABLE arg.group_fd attr.disabled read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t m[3];		/* value, time_enabled, time_running */
	int leader, member;

	s.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	leader = ASSERT_OPEN(&l, 0, -1, -1, 0);
	member = ASSERT_OPEN(&s, 0, -1, leader, 0);	/* disabled too */

	pa_touch_pages(1);	/* warm up the measured path */
	pa_work_cpu_ms(1);
	pa_work_until_ctx_time_moves();	/* its pages too: no fault later */
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(member, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(WHILE_OFF);
	pa_work_cpu_ms(2);	/* time passes while the member is enabled */
	pa_read_u64(member, m, 3);
	EXPECT_EQ(m[0], 0);
	EXPECT_EQ(m[1], 0);
	EXPECT_EQ(m[2], 0);
	EXPECT_EQ(pa_read_one(leader), 0);

	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(WHILE_ON);
	pa_work_until_ctx_time_moves();	/* perf's clock may move only at ticks */
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(member, m, 3);
	EXPECT_EQ(m[0], WHILE_ON);
	EXPECT_EQ(pa_read_one(leader), WHILE_ON);
	EXPECT_GT(m[1], 0);
	close(member);
	close(leader);
}
