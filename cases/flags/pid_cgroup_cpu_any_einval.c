#include "perfabi.h"

#include <fcntl.h>

PERFABI_CASE(
	.assertion = "PERF_FLAG_PID_CGROUP with cpu == -1 fails with EINVAL: a cgroup event must name a CPU",
	.ref = "perf_event_open(2), Arguments: \"cgroup monitoring is available only for system-wide events\"; kernel/events/core.c perf_event_open(): PID_CGROUP && (pid == -1 || cpu == -1) -> -EINVAL",
	.alone = true,
	.covers = "flag.PID_CGROUP arg.cpu errno.EINVAL",
	.features = "cgroup",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	char root[2048], own[2048];
	int dfd;

	if (!pa_perf_cgroup(root, sizeof(root), own, sizeof(own)))
		pa_skip("no cgroup hierarchy with the perf_event controller");
	dfd = ASSERT_OK(open(root, O_RDONLY | O_DIRECTORY));
	EXPECT_OPEN_FAIL(&attr, dfd, -1, -1, PERF_FLAG_PID_CGROUP, EINVAL);
	/* pid == -1 (no cgroup fd at all) is refused the same way */
	EXPECT_OPEN_FAIL(&attr, -1, 0, -1, PERF_FLAG_PID_CGROUP, EINVAL);
}
