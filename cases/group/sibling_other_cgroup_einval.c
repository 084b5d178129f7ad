#include "perfabi.h"

#include <fcntl.h>

/*
 * A cgroup sibling must monitor the same cgroup as its leader. The
 * leader here is a plain CPU-wide event on CPU 0 (no cgroup); a sibling
 * for the hierarchy's root cgroup on CPU 0 is refused, while a cgroup
 * leader accepts a sibling of the same cgroup.
 */
PERFABI_CASE(
	.assertion = "a PERF_FLAG_PID_CGROUP sibling whose cgroup differs from its group leader's (leader: no cgroup) fails with EINVAL; a sibling of the leader's own cgroup joins",
	.ref = "kernel/events/core.c perf_cgroup_connect(): \"all events in a group must monitor the same cgroup\" -> -EINVAL; perf_event_open(2), PERF_FLAG_PID_CGROUP",
	.alone = true,
	.covers = "arg.group_fd flag.PID_CGROUP errno.EINVAL",
	.features = "cgroup",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	char root[2048], own[2048];
	int dfd, leader;

	if (!pa_perf_cgroup(root, sizeof(root), own, sizeof(own)))
		pa_skip("no cgroup hierarchy with the perf_event controller");
	dfd = ASSERT_OK(open(root, O_RDONLY | O_DIRECTORY));
	leader = ASSERT_OPEN(&attr, -1, 0, -1, 0);
	EXPECT_OPEN_FAIL(&attr, dfd, 0, leader, PERF_FLAG_PID_CGROUP, EINVAL);
	close(leader);

	leader = ASSERT_OPEN(&attr, dfd, 0, -1, PERF_FLAG_PID_CGROUP);
	close(ASSERT_OPEN(&attr, dfd, 0, leader, PERF_FLAG_PID_CGROUP));
}
