#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * With PERF_FLAG_FD_NO_GROUP, group_fd does not make the new event a
 * sibling: it counts on its own while the "leader" stays disabled, and
 * the leader's group read lists only itself.
 */
PERFABI_CASE(
	.assertion = "PERF_FLAG_FD_NO_GROUP: the event opened with a valid group_fd is not added to that group; it counts by itself while the would-be leader is disabled, and the leader's PERF_FORMAT_GROUP read reports nr = 1",
	.ref = "perf_event_open(2), flags: PERF_FLAG_FD_NO_GROUP \"creates an event as part of the event group but having no group leader\"; kernel/events/core.c perf_event_open(): FD_NO_GROUP -> group_leader = NULL",
	.covers = "flag.FD_NO_GROUP arg.flags arg.group_fd",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr e = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t g[2], v;
	int leader, fd;

	l.read_format = PERF_FORMAT_GROUP;
	e.disabled = 0;
	leader = ASSERT_OPEN(&l, 0, -1, -1, 0);
	fd = ASSERT_OPEN(&e, 0, -1, leader, PERF_FLAG_FD_NO_GROUP);
	pa_touch_pages(16);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &v, 1);
	EXPECT_GE(v, 16);	/* counted although the "leader" is off */
	pa_read_u64(leader, g, 2);
	EXPECT_EQ(g[0], 1);
	EXPECT_EQ(g[1], 0);
}
