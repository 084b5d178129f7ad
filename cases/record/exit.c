#include "perfabi.h"

#include <sys/wait.h>
#include <time.h>

PERFABI_CASE(
	.assertion = "attr.task: the exit of the monitored task produces PERF_RECORD_EXIT {pid, ppid, tid, ptid, time} with its pid and its parent's, time read from the event clock (attr.clockid) between the go signal and the reaping",
	.ref = "perf_event_open(2), task: \"fork/exit notifications are included in the ring buffer\"; PERF_RECORD_EXIT",
	.covers = "attr.task record.EXIT",
	.min_kernel = "4.1",	/* use_clockid */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct pa_task_rec *t;
	struct pa_ring r;
	uint64_t before, after;
	int fd, p[2], st;
	pid_t child;
	char go = 'x';

	ASSERT_OK(pipe(p));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		if (read(p[0], &go, 1) != 1)
			_exit(2);
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
	t = (const struct pa_task_rec *)pa_ring_find_pid(&r, PERF_RECORD_EXIT, child);
	ASSERT_TRUE(t != NULL);
	EXPECT_EQ(t->tid, (uint32_t)child);
	EXPECT_EQ(t->pid, (uint32_t)child);
	EXPECT_EQ(t->ppid, (uint32_t)getpid());
	EXPECT_EQ(t->ptid, (uint32_t)getpid());	/* real_parent, single-threaded */
	EXPECT_EQ(t->h.size, sizeof(*t));
	EXPECT_EQ(t->h.misc, 0);
	/* time: perf_event_clock() of the event, here CLOCK_MONOTONIC */
	EXPECT_GE(t->time, before);
	EXPECT_LE(t->time, after);
}
