#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * Members are laid out in the order they joined the group (the leader
 * first), whatever their fd numbers: here the last two members reuse
 * lower descriptors freed after the leader was opened. Each member
 * counts a different exact number of page faults (members A and C are
 * enabled one after the other while the group runs, B is a dummy), so
 * any reordering of the values shows, and each value is followed by its
 * member's PERF_EVENT_IOC_ID.
 */
#define S1	4	/* leader only */
#define S2	8	/* leader and A */
#define S3	16	/* leader, A and C */

PERFABI_CASE(
	.assertion = "a PERF_FORMAT_GROUP | PERF_FORMAT_ID read lists the leader first and then the members in the order they were created (not in fd order), each value followed by that member's PERF_EVENT_IOC_ID: members counting 28, 24, 0 and 16 page faults read back in exactly that order",
	.ref = "perf_event_open(2), Reading results: PERF_FORMAT_GROUP \"struct read_format { u64 nr; ... struct { u64 value; u64 id; } values[nr]; }\"; kernel/events/core.c perf_group_attach(): list_add_tail() to the leader's sibling_list",
	.covers = "arg.group_fd read_format.GROUP read_format.ID ioctl.ID ioctl.ENABLE",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	const uint64_t want[4] = { S1 + S2 + S3, S2 + S3, 0, S3 };
	uint64_t b[16] = { 0 }, id[4];
	int fd[4], p[2];

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	ASSERT_OK(pipe(p));				/* two low fds */
	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);	/* leader */
	fd[1] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);	/* A: enabled later */
	close(p[0]);
	close(p[1]);
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.disabled = 0;
	fd[2] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);	/* B: counts nothing */
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.disabled = 1;
	fd[3] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);	/* C: enabled last */
	ASSERT_LT(fd[2], fd[0]);	/* fd order differs from creation order */
	ASSERT_LT(fd[3], fd[0]);
	for (int i = 0; i < 4; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));

	pa_touch_pages(1);	/* warm up the measured path */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(S1);
	ASSERT_OK(ioctl(fd[1], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(S2);
	ASSERT_OK(ioctl(fd[3], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(S3);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(read(fd[0], b, sizeof(b)), 8 + 4 * 16);
	EXPECT_EQ(b[0], 4);
	for (int i = 0; i < 4; i++) {
		EXPECT_EQ(b[1 + 2 * i], want[i]);
		EXPECT_EQ(b[2 + 2 * i], id[i]);
	}
	for (int i = 0; i < 4; i++)
		close(fd[i]);
}
