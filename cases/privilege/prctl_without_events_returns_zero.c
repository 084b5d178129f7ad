#include "perfabi.h"

#include <sys/prctl.h>
#include <sys/wait.h>

/*
 * A freshly forked process has opened no events (perf_event_init_task()
 * starts its perf_event_list empty; owned events are not inherited).
 * perf_event_task_disable()/perf_event_task_enable() walk that empty list
 * and return 0: neither prctl fails for lack of events, whatever the
 * identity or perf_event_paranoid (prctl checks no permission).
 */
struct result {
	long ret;
	int err;
};

PERFABI_CASE(
	.assertion = "prctl(PR_TASK_PERF_EVENTS_DISABLE) and prctl(PR_TASK_PERF_EVENTS_ENABLE) return 0 when the calling process has no events, at any identity and perf_event_paranoid level",
	.ref = "perf_event_open(2), \"Using prctl\"; prctl(2) PR_TASK_PERF_EVENTS_DISABLE/ENABLE; kernel/sys.c: error = perf_event_task_disable() / perf_event_task_enable(), which always return 0",
	.covers = "prctl.TASK_PERF_EVENTS_DISABLE prctl.TASK_PERF_EVENTS_ENABLE",
	.privileged = true,
) {
	struct result res[2];
	int p[2], st;
	pid_t pid;

	ASSERT_OK(pipe(p));
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		errno = 0;
		res[0].ret = prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
		res[0].err = errno;
		errno = 0;
		res[1].ret = prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
		res[1].err = errno;
		_exit(write(p[1], res, sizeof(res)) == (ssize_t)sizeof(res) ? 0 : 1);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_EQ(read(p[0], res, sizeof(res)), (ssize_t)sizeof(res));
	if (res[0].ret)
		pa_diag("PR_TASK_PERF_EVENTS_DISABLE: %s", pa_errno_name(res[0].err));
	if (res[1].ret)
		pa_diag("PR_TASK_PERF_EVENTS_ENABLE: %s", pa_errno_name(res[1].err));
	EXPECT_EQ(res[0].ret, 0);
	EXPECT_EQ(res[1].ret, 0);
}
