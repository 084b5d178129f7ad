#include "perfabi.h"

#include <limits.h>
#include <signal.h>

PERFABI_CASE(
	.assertion = "a pid naming no process fails with ESRCH",
	.ref = "perf_event_open(2), ESRCH: \"attempting to attach to a process "
	       "that does not exist\"; kernel/events/core.c find_lively_task_by_vpid()",
	.covers = "arg.pid errno.ESRCH",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	long max = pa_sysctl_long("kernel/pid_max");
	pid_t pid = -1;

	if (max == LONG_MIN || max < 300)
		pa_skip("kernel/pid_max unreadable");
	/* pid_max - 1 is the last pid the kernel may hand out: pick the first
	 * free one counting down from there */
	for (pid_t p = (pid_t)max - 1; p > (pid_t)max - 200; p--) {
		char path[32];

		/* kill() misses a non-leader thread id; /proc/<tid> does not */
		snprintf(path, sizeof(path), "/proc/%d", (int)p);
		errno = 0;
		if (kill(p, 0) == -1 && errno == ESRCH && access(path, F_OK)) {
			pid = p;
			break;
		}
	}
	if (pid < 0)
		pa_skip("no free pid near pid_max %ld", max);
	pa_diag("pid %d does not exist", (int)pid);
	EXPECT_OPEN_FAIL(&attr, pid, -1, -1, 0, ESRCH);
}
