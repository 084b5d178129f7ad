#include "perfabi.h"

#include <fcntl.h>

/*
 * The cgroup fd is resolved while the event is allocated, before the
 * CPU-wide permission check, so every identity sees EBADF.
 */
PERFABI_CASE(
	.assertion = "PERF_FLAG_PID_CGROUP with pid an fd that is not a cgroup directory (a directory of another filesystem, a pipe) or not open fails with EBADF",
	.ref = "kernel/events/core.c perf_cgroup_connect() -> kernel/cgroup/cgroup.c css_tryget_online_from_dir(): \"is @dentry a cgroup dir?\" -> -EBADF; perf_event_open(2), EBADF",
	.alone = true,
	.covers = "flag.PID_CGROUP errno.EBADF",
	.features = "cgroup",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int dfd = ASSERT_OK(open("/", O_RDONLY | O_DIRECTORY));
	int p[2];

	ASSERT_OK(pipe(p));
	EXPECT_OPEN_FAIL(&attr, dfd, 0, -1, PERF_FLAG_PID_CGROUP, EBADF);
	EXPECT_OPEN_FAIL(&attr, p[0], 0, -1, PERF_FLAG_PID_CGROUP, EBADF);
	close(p[1]);
	close(p[0]);
	EXPECT_OPEN_FAIL(&attr, p[0], 0, -1, PERF_FLAG_PID_CGROUP, EBADF);
}
