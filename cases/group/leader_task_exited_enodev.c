#include "perfabi.h"

#include <sys/wait.h>

/*
 * A group leader attached to a child process: while the child lives a
 * sibling can join it; once the child has exited, perf_event_exit_task()
 * has moved the leader to PERF_EVENT_STATE_EXIT and perf_event_open()
 * refuses it as group_fd with ENODEV, before it looks at pid/cpu or at
 * PERF_FLAG_FD_NO_GROUP (without that check a sibling for this task would
 * be EINVAL, another context).
 */
PERFABI_CASE(
	.assertion = "a group_fd whose leader's task has exited can no longer be used: perf_event_open() with it fails with ENODEV (also with PERF_FLAG_FD_NO_GROUP), while before the exit a sibling for that task joined the same leader",
	.ref = "kernel/events/core.c perf_event_open(): group_leader->state <= PERF_EVENT_STATE_EXIT -> -ENODEV (5.13, \"perf: Rework perf_event_exit_event()\"); perf_event_exit_event() sets PERF_EVENT_STATE_EXIT; perf_event_open(2) group_fd",
	.covers = "arg.group_fd errno.ENODEV",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int go[2], leader, sib, st;
	char c;
	pid_t pid;

	ASSERT_OK(pipe(go));
	pid = fork();
	ASSERT_OK(pid);
	if (pid == 0) {
		close(go[1]);
		_exit(read(go[0], &c, 1) == 1 ? 0 : 1);
	}
	close(go[0]);
	leader = EXPECT_OPEN(&attr, pid, -1, -1, 0);
	sib = leader >= 0 ? EXPECT_OPEN(&attr, pid, -1, leader, 0) : -1;
	ASSERT_OK(write(go[1], "x", 1));
	close(go[1]);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (leader < 0)
		return;
	/* the exited task's leader: refused, whatever the new event targets */
	EXPECT_OPEN_FAIL(&attr, 0, -1, leader, 0, ENODEV);
	EXPECT_OPEN_FAIL(&attr, pid, -1, leader, 0, ENODEV);
	EXPECT_OPEN_FAIL(&attr, 0, -1, leader, PERF_FLAG_FD_NO_GROUP, ENODEV);
	/* a live leader of this task still takes a sibling */
	close(sib);
	close(leader);
	leader = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	close(EXPECT_OPEN(&attr, 0, -1, leader, 0));
	close(leader);
}
