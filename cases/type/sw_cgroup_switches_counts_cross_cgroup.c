#include "perfabi.h"

#include <fcntl.h>
#include <sys/wait.h>

#define ROUNDS 40

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_CGROUP_SWITCHES counts context switches to a "
		     "task in a different cgroup: ping-ponging 40 times on one CPU "
		     "with a child in another cgroup counts at least 20",
	.ref = "perf_event_open(2), PERF_COUNT_SW_CGROUP_SWITCHES (since Linux 5.13); "
	       "include/linux/perf_event.h perf_event_task_sched_out()",
	.alone = true,
	.covers = "sw.CGROUP_SWITCHES attr.config",
	.features = "cgroup",
	.min_kernel = "5.13",
	.root = true,		/* creates a cgroup; counts kernel-side switches */
	.timeout = 20,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CGROUP_SWITCHES);
	struct pa_cgroup cg;
	int ping[2], pong[2], cpus[1], fd;
	uint64_t n;
	pid_t pid;
	char c;

	pa_cgroup_new(&cg, "perfabi-cgsw-", false);
	ASSERT_EQ(pa_allowed_cpus(cpus, 1), 1);
	ASSERT_OK(pa_pin_cpu(cpus[0]));	/* both tasks share one CPU */
	ASSERT_OK(pipe(ping));
	ASSERT_OK(pipe(pong));
	pid = fork();
	ASSERT_OK(pid);
	if (pid == 0) {
		close(ping[1]);
		close(pong[0]);
		if (pa_cgroup_enter(&cg, getpid()))
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
		pa_cgroup_remove(&cg);
		pa_fail("the child could not join cgroup %s", cg.dir);
		pa_abort();
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
	pa_cgroup_remove(&cg);
	pa_diag("%llu cgroup switches over %d round trips", (unsigned long long)n, ROUNDS);
	EXPECT_GE(n, ROUNDS / 2);
}
