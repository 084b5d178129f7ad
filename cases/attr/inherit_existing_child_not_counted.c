#include "perfabi.h"

#include <sys/wait.h>

/*
 * inherit is applied when a task forks (perf_event_init_task() copies the
 * parent's inheritable events into the new child). A child forked before
 * the event existed got nothing: its page faults are not in the count.
 */
PERFABI_CASE(
	.assertion = "attr.inherit covers only children created after the event: a child forked before the inherit event was opened touches 64 pages and they are not counted",
	.ref = "perf_event_open(2), inherit: \"This applies only to new children, not to any existing children at the time the counter is created\"",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int p[2], st, fd;
	char c = 'g';
	pid_t pid;

	ASSERT_OK(pipe(p));
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
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_EQ(write(p[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_LT(pa_read_one(fd), 32);
	close(fd);
}
