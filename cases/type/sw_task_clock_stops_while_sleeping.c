#include "perfabi.h"

#include <sys/ioctl.h>
#include <time.h>

/*
 * The task clock advances only while the task's perf context is scheduled
 * in: task_clock_event_update() adds ctx->time, which stops at
 * perf_event_task_sched_out() when the task blocks and restarts when it
 * runs again.
 *
 * The bound is exact, with nothing fitted to a machine: clock_nanosleep()
 * blocks the task from the moment it schedules out until its timer, at
 * least 50 ms after the call began, has fired. Of the monotonic interval
 * m1 - m0 around the sleep, the task is therefore on a CPU at most
 * (m1 - m0) - 50 ms plus what the call ran before it blocked, which its
 * CPU time (c1 - c0) already counts. A busy host stretches m1 - m0 and the
 * task clock alike (a vCPU stalled while the task runs); a task clock that
 * counted the sleep exceeds the bound by the whole 50 ms.
 */
PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_TASK_CLOCK does not advance while the task "
		     "sleeps: across a 50 ms clock_nanosleep() it grows by at most "
		     "the time the task can have been on a CPU, the interval less "
		     "the 50 ms plus the thread's CPU time over it",
	.ref = "perf_event_open(2), PERF_COUNT_SW_TASK_CLOCK \"a clock count "
	       "specific to the task that is running\"; kernel/events/core.c "
	       "task_clock_event_update(), perf_event_task_sched_out()",
	.covers = "sw.TASK_CLOCK attr.config",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct timespec nap = { 0, 50000000 };
	uint64_t m0, m1, c0, c1, tc;
	int fd;

	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	m0 = pa_clock_ns(CLOCK_MONOTONIC);
	c0 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, &nap) == EINTR)
		;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	c1 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	m1 = pa_clock_ns(CLOCK_MONOTONIC);
	pa_read_u64(fd, &tc, 1);
	close(fd);

	pa_diag("task clock %llu ns, thread CPU time %llu ns, slept %llu ns",
		(unsigned long long)tc, (unsigned long long)(c1 - c0),
		(unsigned long long)(m1 - m0));
	ASSERT_GE(m1 - m0, 50000000u);	/* the sleep happened */
	EXPECT_LE(tc, (m1 - m0) - 50000000 + (c1 - c0));
}
