#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * GRP-25. Groups of software events are not limited by hardware counters:
 * a leader and 63 members all go on together and each counts exactly the
 * touched pages; the group read has nr = 64 and the ids in order.
 */
#define N	64
#define TOUCHED	16

PERFABI_CASE(
	.assertion = "a group of 64 software events (a page-fault leader and 63 page-fault members) opens, is scheduled as a unit and reads back nr = 64 with each member's exact count and id in creation order",
	.ref = "perf_event_open(2), group_fd: \"it will be put onto the CPU only if all of the events in the group can be put onto the CPU\"; kernel/events/core.c group_can_go_on(): \"Groups consisting entirely of software events can always go on\"",
	.covers = "arg.group_fd read_format.GROUP read_format.ID ioctl.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	static uint64_t b[1 + 2 * N + 8], id[N];
	int fd[N];

	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	fd[0] = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	attr.disabled = 0;
	for (int i = 1; i < N; i++)
		fd[i] = ASSERT_OPEN(&attr, 0, -1, fd[0], 0);
	for (int i = 0; i < N; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));

	pa_touch_pages(1);	/* warm up the measured path */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(read(fd[0], b, sizeof(b)), 8 + N * 16);
	EXPECT_EQ(b[0], N);
	for (int i = 0; i < N; i++) {
		EXPECT_EQ(b[1 + 2 * i], TOUCHED);
		EXPECT_EQ(b[2 + 2 * i], id[i]);
	}
	for (int i = 0; i < N; i++)
		close(fd[i]);
}
