#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET with PERF_IOC_FLAG_GROUP zeroes every member of the group; without the flag only the target",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET; PERF_IOC_FLAG_GROUP",
	.covers = "ioctl.RESET ioctl.FLAG_GROUP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t warm;
	int fd[3];

	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	attr.disabled = 0;
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
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_OK(ioctl(fd[2], PERF_EVENT_IOC_RESET, 0));
	EXPECT_EQ(pa_read_one(fd[0]), 16);
	EXPECT_EQ(pa_read_one(fd[1]), 16);
	EXPECT_EQ(pa_read_one(fd[2]), 0);

	ASSERT_OK(ioctl(fd[1], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), 0);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
