#include "perfabi.h"

#include <sys/ioctl.h>
#include <time.h>

/*
 * The task clock advances only while the task's perf context is scheduled
 * in: task_clock_event_update() adds ctx->time, which stops at
 * perf_event_task_sched_out() when the task blocks and restarts when it
 * runs again. Across a 50 ms sleep the task is on a CPU only for the
 * nanosleep() system call itself, which its CPU time also counts; the task
 * clock may exceed that by the microseconds around the context switches,
 * far below the 2 ms allowed here and the 50 ms it would show if it counted
 * the sleep.
 */
PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_TASK_CLOCK does not advance while the task "
		     "sleeps: across a 50 ms clock_nanosleep() it grows by at most "
		     "the thread's CPU time over the same interval plus 2 ms",
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
	EXPECT_LE(tc, (c1 - c0) + 2000000);
}
