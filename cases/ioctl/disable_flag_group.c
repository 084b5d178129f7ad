#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_DISABLE with PERF_IOC_FLAG_GROUP disables every member of the group; without the flag only the target event stops",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_DISABLE; PERF_IOC_FLAG_GROUP",
	.covers = "ioctl.DISABLE ioctl.FLAG_GROUP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v[3];
	int fd[3];

	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack): the page faults counted are then exactly
	 * the pages touched (here on a disabled event) */
	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ID, &v[0]));
	ASSERT_EQ(pa_read_one(fd[0]), 0);
	pa_touch_pages(1);
	close(fd[0]);

	attr.disabled = 0;
	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	fd[2] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	pa_touch_pages(8);

	/* without the flag, on a sibling: only that sibling stops */
	ASSERT_OK(ioctl(fd[1], PERF_EVENT_IOC_DISABLE, 0));
	for (int i = 0; i < 3; i++)
		v[i] = pa_read_one(fd[i]);
	pa_touch_pages(16);
	EXPECT_EQ(pa_read_one(fd[0]), v[0] + 16);
	EXPECT_EQ(pa_read_one(fd[1]), v[1]);
	EXPECT_EQ(pa_read_one(fd[2]), v[2] + 16);

	/* with the flag: the whole group stops */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	for (int i = 0; i < 3; i++)
		v[i] = pa_read_one(fd[i]);
	pa_touch_pages(16);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), v[i]);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
