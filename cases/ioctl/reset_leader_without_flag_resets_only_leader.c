#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * IOC-08. ioctl/reset_flag_group resets a member; this is the leader's
 * side: RESET on the leader with argument 0 zeroes the leader and leaves
 * every member's count exactly as it was; with PERF_IOC_FLAG_GROUP the
 * same call on the leader zeroes them all.
 */
#define TOUCHED	16

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET on a group leader without PERF_IOC_FLAG_GROUP resets only the leader (the members keep their exact counts); with PERF_IOC_FLAG_GROUP it resets every member of the group",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"Reset the event count specified by the file descriptor argument to zero ... If the ioctl argument has PERF_IOC_FLAG_GROUP set, then all events in a group are reset\"; older pages: \"only the group leader is reset (child events are not)\"",
	.covers = "ioctl.RESET ioctl.FLAG_GROUP arg.group_fd",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd[3];

	s.disabled = 0;
	fd[0] = ASSERT_OPEN(&l, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&s, 0, -1, fd[0], 0);
	s.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	fd[2] = ASSERT_OPEN(&s, 0, -1, fd[0], 0);

	pa_touch_pages(1);	/* warm up the measured path */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(pa_read_one(fd[i]), TOUCHED);

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));
	EXPECT_EQ(pa_read_one(fd[0]), 0);
	EXPECT_EQ(pa_read_one(fd[1]), TOUCHED);
	EXPECT_EQ(pa_read_one(fd[2]), TOUCHED);

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), 0);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
