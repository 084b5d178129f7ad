#include "perfabi.h"

#include <fcntl.h>
#include <sys/ioctl.h>

/*
 * A cgroup event is per CPU: pid is an fd of the cgroup directory and cpu
 * a CPU. One event per CPU this task may use, summed, sees the page faults
 * of the child moved into a fresh cgroup and none of ours.
 */
PERFABI_CASE(
	.assertion = "PERF_FLAG_PID_CGROUP: with pid an fd of a cgroup directory and cpu >= 0, the event counts the tasks in that cgroup on that CPU: summed over the CPUs it sees the page faults of a child moved into the cgroup, not those of the (non-member) caller",
	.ref = "perf_event_open(2), flags: PERF_FLAG_PID_CGROUP (since 2.6.39) \"per-container system-wide monitoring\"; Arguments: \"the pid parameter ... the file descriptor opened on the cgroup directory\"",
	.alone = true,
	.covers = "flag.PID_CGROUP arg.flags arg.pid",
	.features = "cgroup",
	.min_kernel = "2.6.39",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int cpus[1024], n, fd[1024], dfd;
	struct pa_puppet child;
	struct pa_cgroup cg;
	uint64_t v, sum = 0;

	pa_cgroup_new(&cg, "pa-group-cg-", true);
	pa_puppet_start(&child);
	if (pa_cgroup_enter(&cg, child.pid)) {
		pa_fail("moving %d into %s: %s", (int)child.pid, cg.dir, pa_errno_name(errno));
		goto out;
	}
	dfd = open(cg.dir, O_RDONLY | O_DIRECTORY);
	n = pa_allowed_cpus(cpus, 1024);
	if (dfd < 0 || n <= 0) {
		pa_fail("open(%s) or CPU list failed", cg.dir);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		fd[i] = EXPECT_OPEN(&attr, dfd, cpus[i], -1, PERF_FLAG_PID_CGROUP);
		if (fd[i] < 0)
			goto out;
	}
	for (int i = 0; i < n; i++)
		ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
	pa_touch_pages(512);			/* the caller: not a member */
	pa_puppet_run(&child, pa_work_pages, 32);	/* the member */
	for (int i = 0; i < n; i++) {
		ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
		pa_read_u64(fd[i], &v, 1);
		sum += v;
		close(fd[i]);
	}
	EXPECT_GE(sum, 32);
	EXPECT_LT(sum, 512);
out:
	pa_puppet_stop(&child);
	pa_cgroup_remove(&cg);
}
