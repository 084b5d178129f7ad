#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_ENABLE with PERF_IOC_FLAG_GROUP enables every member of the group; without the flag only the event the fd refers to",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_ENABLE: \"If the ioctl argument has PERF_IOC_FLAG_GROUP set, then all events in a group are enabled\"",
	.covers = "ioctl.ENABLE ioctl.FLAG_GROUP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t warm;
	int fd[3], g[3];

	/* without the flag: only the leader is enabled, siblings stay off */
	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	fd[2] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack): the page faults counted are then exactly
	 * the pages touched */
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ID, &warm));
	ASSERT_EQ(pa_read_one(fd[0]), 0);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd[0]), 16);
	EXPECT_EQ(pa_read_one(fd[1]), 0);
	EXPECT_EQ(pa_read_one(fd[2]), 0);

	/* with the flag: all three count */
	g[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	g[1] = ASSERT_OPEN(&attr, 0, -1, g[0], 0);
	g[2] = ASSERT_OPEN(&attr, 0, -1, g[0], 0);
	ASSERT_OK(ioctl(g[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	pa_touch_pages(16);
	/* the first group goes on counting, its leader enabled */
	EXPECT_EQ(pa_read_one(fd[0]), 32);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(g[i]), 16);
	for (int i = 0; i < 3; i++) {
		close(fd[i]);
		close(g[i]);
	}
}
