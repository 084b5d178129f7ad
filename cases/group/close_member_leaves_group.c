#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * Closing a member (not the leader) takes it out of its group
 * (perf_group_detach(): list_del_init(), nr_siblings--): the leader's
 * PERF_FORMAT_GROUP read shrinks by one entry, the remaining members keep
 * their order, and the group still counts as a unit.
 */
#define TOUCHED	8

PERFABI_CASE(
	.assertion = "closing a group member removes it from the group: the leader's PERF_FORMAT_GROUP read then has nr one less, lists the remaining members in their creation order with their own ids, and they still count together",
	.ref = "perf_event_open(2), read_format PERF_FORMAT_GROUP; kernel/events/core.c perf_group_detach(): \"If this is a sibling, remove it from its group\"",
	.covers = "arg.group_fd read_format.GROUP read_format.ID ioctl.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[16] = { 0 }, id[4];
	int fd[4];

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	attr.disabled = 0;
	fd[1] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);	/* closed below */
	attr.config = PERF_COUNT_SW_DUMMY;
	fd[2] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;
	fd[3] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	for (int i = 0; i < 4; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
	ASSERT_EQ(read(fd[0], b, sizeof(b)), 8 + 4 * 16);
	ASSERT_EQ(b[0], 4);

	ASSERT_OK(close(fd[1]));
	pa_touch_pages(1);	/* warm up the measured path */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	memset(b, 0, sizeof(b));
	ASSERT_EQ(read(fd[0], b, sizeof(b)), 8 + 3 * 16);
	EXPECT_EQ(b[0], 3);
	EXPECT_EQ(b[1], TOUCHED);	/* leader */
	EXPECT_EQ(b[2], id[0]);
	EXPECT_EQ(b[3], 0);		/* dummy */
	EXPECT_EQ(b[4], id[2]);
	EXPECT_EQ(b[5], TOUCHED);	/* minor faults */
	EXPECT_EQ(b[6], id[3]);
	close(fd[0]);
	close(fd[2]);
	close(fd[3]);
}
