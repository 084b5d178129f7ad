#include "perfabi.h"

#include <sys/wait.h>
#include <time.h>

PERFABI_CASE(
	.assertion = "attr.task: a fork() by the monitored task produces PERF_RECORD_FORK {pid, ppid, tid, ptid, time} naming the new process and the forking one, time read from the event clock (attr.clockid) between the fork and its reaping",
	.ref = "perf_event_open(2), task: \"If this bit is set, then fork/exit notifications are included in the ring buffer\"; PERF_RECORD_FORK",
	.covers = "attr.task record.FORK",
	.min_kernel = "4.1",	/* use_clockid */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct pa_task_rec *t;
	struct pa_ring r;
	uint64_t before, after;
	int fd, p[2], st;
	pid_t child, gc = 0;
	char go = 'x';

	ASSERT_OK(pipe(p));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		/* wait for the event, fork, report the grandchild's pid */
		if (read(p[0], &go, 1) != 1)
			_exit(2);
		gc = fork();
		if (gc == 0)
			_exit(0);
		if (write(p[1], &gc, sizeof(gc)) != sizeof(gc))
			_exit(3);
		waitpid(gc, NULL, 0);
		_exit(0);
	}
	attr.disabled = 0;
	attr.task = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = ASSERT_OPEN(&attr, child, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	before = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(write(p[1], &go, 1), 1);
	ASSERT_EQ(waitpid(child, &st, 0), child);
	after = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_EQ(read(p[0], &gc, sizeof(gc)), (ssize_t)sizeof(gc));
	t = (const struct pa_task_rec *)pa_ring_find_pid(&r, PERF_RECORD_FORK, gc);
	ASSERT_TRUE(t != NULL);
	EXPECT_EQ(t->pid, (uint32_t)gc);
	EXPECT_EQ(t->ppid, (uint32_t)child);
	EXPECT_EQ(t->tid, (uint32_t)gc);
	EXPECT_EQ(t->ptid, (uint32_t)child);
	EXPECT_EQ(t->h.size, sizeof(*t));
	EXPECT_EQ(t->h.misc, 0);
	/* time: perf_event_clock() of the event, here CLOCK_MONOTONIC */
	EXPECT_GE(t->time, before);
	EXPECT_LE(t->time, after);
}
