#include "perfabi.h"

#include <signal.h>
#include <sys/wait.h>

PERFABI_CASE(
	.assertion = "a process that has exited but is not reaped (a zombie) "
		     "cannot be attached to: ESRCH",
	.ref = "kernel/events/core.c: find_lively_task_by_vpid() finds the zombie, "
	       "then find_get_context() sees PF_EXITING and returns -ESRCH; "
	       "perf_event_open(2), ESRCH",
	.covers = "arg.pid errno.ESRCH",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	siginfo_t si;
	pid_t pid = fork();

	ASSERT_OK(pid);
	if (pid == 0)
		_exit(0);
	/* wait until it is a zombie, without reaping it */
	memset(&si, 0, sizeof(si));
	ASSERT_OK(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT));
	ASSERT_EQ(si.si_pid, pid);
	ASSERT_OK(kill(pid, 0));	/* still there */
	EXPECT_OPEN_FAIL(&attr, pid, -1, -1, 0, ESRCH);
	waitpid(pid, NULL, 0);
}
