#include "perfabi.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>

#define PREFIX "pa-group-cg-"

/* Remove empty directories a killed earlier run of this case left. */
static void remove_leftovers(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char p[4200];

	if (!d)
		return;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, PREFIX, strlen(PREFIX))) {
			snprintf(p, sizeof(p), "%s/%s", root, e->d_name);
			rmdir(p);
		}
	closedir(d);
}

static void remove_dir(const char *dir)
{
	for (int i = 0; i < 100 && rmdir(dir) && errno == EBUSY; i++)
		usleep(10000);
}

/*
 * A cgroup event is per CPU: pid is an fd of the cgroup directory and cpu
 * a CPU. One event per CPU this task may use, summed, sees the page faults
 * of the child moved into a fresh cgroup and none of ours.
 */
PERFABI_CASE(
	.assertion = "PERF_FLAG_PID_CGROUP: with pid an fd of a cgroup directory and cpu >= 0, the event counts the tasks in that cgroup on that CPU: summed over the CPUs it sees the page faults of a child moved into the cgroup, not those of the (non-member) caller",
	.ref = "perf_event_open(2), flags: PERF_FLAG_PID_CGROUP (since 2.6.39) \"per-container system-wide monitoring\"; Arguments: \"the pid parameter ... the file descriptor opened on the cgroup directory\"",
	.covers = "flag.PID_CGROUP arg.flags arg.pid",
	.min_kernel = "2.6.39",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	char root[2048], own[2048], dir[2200], procs[2300], pid[32];
	int cpus[1024], n, fd[1024], dfd, pfd;
	struct pa_puppet child;
	uint64_t v, sum = 0;
	char tmp[] = "/tmp/pa-group-cg2-XXXXXX";
	bool mounted = false;

	if (!pa_perf_cgroup(root, sizeof(root), own, sizeof(own))) {
		/* no perf_event hierarchy mounted: mount cgroup2 privately */
		if (!mkdtemp(tmp))
			pa_skip("no perf_event cgroup hierarchy, mkdtemp failed");
		if (mount("cgroup2", tmp, "cgroup2", 0, NULL)) {
			rmdir(tmp);
			pa_skip("no perf_event cgroup hierarchy and mounting cgroup2 failed: %s",
				pa_errno_name(errno));
		}
		mounted = true;
		snprintf(root, sizeof(root), "%s", tmp);
	}
	remove_leftovers(root);
	snprintf(dir, sizeof(dir), "%s/" PREFIX "%d", root, (int)getpid());
	if (mkdir(dir, 0755)) {
		if (mounted) {
			umount2(tmp, MNT_DETACH);
			rmdir(tmp);
		}
		pa_skip("cannot create cgroup %s: %s", dir, pa_errno_name(errno));
	}

	pa_puppet_start(&child);
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)child.pid);
	pfd = open(procs, O_WRONLY);
	if (pfd < 0 || write(pfd, pid, strlen(pid)) != (ssize_t)strlen(pid)) {
		pa_fail("moving %d into %s: %s", (int)child.pid, procs, pa_errno_name(errno));
		goto out;
	}
	close(pfd);

	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	n = pa_allowed_cpus(cpus, 1024);
	if (dfd < 0 || n <= 0) {
		pa_fail("open(%s) or CPU list failed", dir);
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
	remove_dir(dir);
	if (mounted) {
		umount2(tmp, MNT_DETACH);
		rmdir(tmp);
	}
}
