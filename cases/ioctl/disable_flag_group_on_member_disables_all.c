#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * GRP-08, DISABLE side (ioctl/disable_flag_group issues it on the
 * leader): PERF_EVENT_IOC_DISABLE with PERF_IOC_FLAG_GROUP on the last
 * member stops the whole group, leader included, and turns every event
 * off, not just the leader: enabling the leader alone afterwards (without
 * the flag) restarts only the leader.
 */
#define ON	8
#define OFF	16
#define AGAIN	4

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_DISABLE with PERF_IOC_FLAG_GROUP issued on a member (not the leader) disables every event of the group: none counts afterwards, and enabling the leader alone then restarts only the leader",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_DISABLE: \"If the PERF_IOC_FLAG_GROUP bit is set in the ioctl argument, then all events in a group are disabled, even if the event specified is not the group leader\"; kernel/events/core.c perf_event_for_each()",
	.covers = "ioctl.DISABLE ioctl.FLAG_GROUP arg.group_fd",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd[3];

	s.disabled = 0;
	fd[0] = ASSERT_OPEN(&l, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&s, 0, -1, fd[0], 0);
	fd[2] = ASSERT_OPEN(&s, 0, -1, fd[0], 0);

	pa_touch_pages(1);	/* warm up the measured path */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(ON);
	ASSERT_OK(ioctl(fd[2], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	pa_touch_pages(OFF);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), ON);

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(AGAIN);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd[0]), ON + AGAIN);
	EXPECT_EQ(pa_read_one(fd[1]), ON);
	EXPECT_EQ(pa_read_one(fd[2]), ON);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
