#include "perfabi.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define ROUNDS 40

/* Remove empty cgroups a killed earlier run left behind (rmdir fails on a
 * cgroup still in use, so a concurrent run is not disturbed). */
static void remove_stale(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char path[2400];

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "perfabi-cgsw-", 13))
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, e->d_name);
		rmdir(path);
	}
	if (d)
		closedir(d);
}

/* Move the calling process into dir's cgroup.procs. */
static int enter(const char *dir)
{
	char path[2200], pid[24];
	int fd, n, ok;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = snprintf(pid, sizeof(pid), "%d", (int)getpid());
	ok = write(fd, pid, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -1;
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_CGROUP_SWITCHES counts context switches to a "
		     "task in a different cgroup: ping-ponging 40 times on one CPU "
		     "with a child in another cgroup counts at least 20",
	.ref = "perf_event_open(2), PERF_COUNT_SW_CGROUP_SWITCHES (since Linux 5.13); "
	       "include/linux/perf_event.h perf_event_task_sched_out()",
	.covers = "sw.CGROUP_SWITCHES attr.config",
	.min_kernel = "5.13",
	.root = true,		/* creates a cgroup; counts kernel-side switches */
	.timeout = 20,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CGROUP_SWITCHES);
	char root[2048], own[2048], dir[2200];
	int ping[2], pong[2], cpus[1], fd;
	uint64_t n;
	pid_t pid;
	char c;

	if (!pa_perf_cgroup(root, sizeof(root), own, sizeof(own)))
		pa_skip("no cgroup hierarchy with the perf_event controller");
	remove_stale(root);
	snprintf(dir, sizeof(dir), "%s/perfabi-cgsw-%d", root, (int)getpid());
	if (mkdir(dir, 0755) && errno != EEXIST)
		pa_skip("cannot create a cgroup in %s: %s", root, strerror(errno));
	ASSERT_EQ(pa_allowed_cpus(cpus, 1), 1);
	ASSERT_OK(pa_pin_cpu(cpus[0]));	/* both tasks share one CPU */
	ASSERT_OK(pipe(ping));
	ASSERT_OK(pipe(pong));
	pid = fork();
	ASSERT_OK(pid);
	if (pid == 0) {
		close(ping[1]);
		close(pong[0]);
		if (enter(dir))
			_exit(1);
		if (write(pong[1], "r", 1) != 1)
			_exit(1);
		while (read(ping[0], &c, 1) == 1)
			if (write(pong[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	if (read(pong[0], &c, 1) != 1) {
		waitpid(pid, NULL, 0);
		rmdir(dir);
		pa_skip("the child could not join cgroup %s", dir);
	}
	attr.exclude_kernel = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < ROUNDS; i++)
		if (write(ping[1], "p", 1) != 1 || read(pong[0], &c, 1) != 1)
			break;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	close(ping[1]);
	waitpid(pid, NULL, 0);
	rmdir(dir);
	pa_diag("%llu cgroup switches over %d round trips", (unsigned long long)n, ROUNDS);
	EXPECT_GE(n, ROUNDS / 2);
}
