#include "perfabi.h"

#include <sys/wait.h>

/*
 * inherit is applied when a task forks (perf_event_init_task() copies the
 * parent's inheritable events into the new child). A child forked before
 * the event existed got nothing: its page faults are not in the count,
 * which holds exactly the parent's own: 0 while it only releases and
 * reaps the child, then 8 for 8 pages it touches itself. The parent's
 * path (pipe write, waitpid, read) is run once before the event is
 * opened, so that its code and stack are faulted in.
 */
PERFABI_CASE(
	.assertion = "attr.inherit covers only children created after the event: a child forked before the inherit event was opened touches 64 pages and none of them is counted (the count stays 0, then is exactly the parent's own 8 page faults for 8 touched pages)",
	.ref = "perf_event_open(2), inherit: \"This applies only to new children, not to any existing children at the time the counter is created\"",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int p[2], w[2], st, fd;
	uint64_t v0, v1;
	char c = 'g';
	pid_t pid;

	ASSERT_OK(pipe(p));
	ASSERT_OK(pipe(w));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 1)
			_exit(1);
		pa_touch_pages(64);
		_exit(0);
	}
	close(p[0]);
	attr.inherit = 1;
	attr.disabled = 0;
	/* warm up: the same calls, on a throw-away event and pipe */
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_EQ(write(w[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, &st, WNOHANG), 0);
	pa_read_one(fd);
	pa_touch_pages(1);
	pa_read_one(fd);
	close(fd);

	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_EQ(write(p[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	v0 = pa_read_one(fd);
	pa_touch_pages(8);
	v1 = pa_read_one(fd);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_EQ(v0, 0);
	EXPECT_EQ(v1, 8);
	close(fd);
}
