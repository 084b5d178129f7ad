#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_ENABLE with PERF_IOC_FLAG_GROUP issued on a sibling enables the whole group of that sibling's leader",
	.ref = "kernel/events/core.c perf_event_for_each(): acts on event->group_leader and its siblings; perf_event_open(2) PERF_IOC_FLAG_GROUP",
	.covers = "ioctl.ENABLE ioctl.FLAG_GROUP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t warm;
	int fd[3];

	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	fd[2] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	/* run once, before anything counts, the code the counted part runs
	 * (and touch its stack): the page faults counted are then exactly
	 * the pages touched */
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ID, &warm));
	ASSERT_EQ(pa_read_one(fd[0]), 0);
	ASSERT_OK(ioctl(fd[2], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	pa_touch_pages(16);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), 16);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
