#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_DISABLE on the leader, argument 0: only the leader's own
 * state goes to OFF (the members stay enabled), yet while it is off none
 * of the group counts, and enabling the leader again resumes every
 * member. Page-fault counts are exact: the code and stack of the measured
 * path are faulted in before the first ENABLE.
 */
#define FIRST	8	/* leader on */
#define OFF	16	/* leader off */
#define AGAIN	4	/* leader on again */

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_DISABLE on a group leader without PERF_IOC_FLAG_GROUP stops every member: while the leader is disabled an enabled member counts none of the page faults, and enabling the leader (again without the flag) resumes the whole group",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_DISABLE: \"Enabling or disabling the leader of a group enables or disables the entire group; that is, while the group leader is disabled, none of the counters in the group will count\"",
	.covers = "ioctl.DISABLE ioctl.ENABLE arg.group_fd sw.PAGE_FAULTS sw.PAGE_FAULTS_MIN",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd[3];

	s.disabled = 0;
	fd[0] = ASSERT_OPEN(&l, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&s, 0, -1, fd[0], 0);
	s.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;	/* first touches are minor */
	fd[2] = ASSERT_OPEN(&s, 0, -1, fd[0], 0);

	pa_touch_pages(1);	/* warm up the measured path */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(FIRST);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	pa_touch_pages(OFF);	/* members enabled, leader off */
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), FIRST);

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(AGAIN);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), FIRST + AGAIN);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
