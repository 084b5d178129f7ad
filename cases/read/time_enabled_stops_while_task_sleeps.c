#include "perfabi.h"

#include <time.h>

/*
 * A per-task event's times come from its task context, whose clock runs
 * only while the task is on a CPU (ctx_sched_out() stops it, ctx_sched_in()
 * restarts it without adding the gap): time_enabled grows by the time the
 * task spent on a CPU, nothing else.
 *
 * The bound is the most time the task can have spent on a CPU between two
 * reads, with nothing fitted to a machine (the rule of
 * type/sw_task_clock_stops_while_sleeping): clock_nanosleep() blocks the
 * task from the moment it schedules out until its timer, at least 200 ms
 * after the call armed it, has fired. Of the monotonic interval m1 - m0
 * around the two reads the task is therefore on a CPU at most
 * (m1 - m0) - 200 ms plus what the call ran between arming the timer and
 * blocking, which its CPU time (c1 - c0) counts. A busy machine stretches
 * m1 - m0 and the task's time on a CPU alike (a vCPU stalled while the task
 * runs, a wait on the run queue); a context clock that ran on through the
 * sleep exceeds the bound by the whole 200 ms, one that accrued a tenth of
 * it by 20 ms.
 *
 * An interrupt between arming the timer and blocking, or local_clock()
 * ahead of CLOCK_MONOTONIC by up to a tick where sched_clock is unstable,
 * can spoil a try by a millisecond or two (see the task clock case); a try
 * over the bound is tried again, up to five times, and a context clock that
 * ran on through the sleep is over it in every one: FAIL.
 */
#define NAP_NS 200000000ull

PERFABI_CASE(
	.assertion = "an enabled per-task event accrues time_enabled only while the "
		     "task runs: across a 200 ms sleep it grows by at most the time "
		     "the task can have been on a CPU, the interval around the two "
		     "reads less the 200 ms plus the thread's CPU time over it (in one "
		     "of five tries)",
	.ref = "perf_event_open(2), read_format: \"time_enabled ... total time the "
	       "event was enabled\" (of a task event: while the task is scheduled); "
	       "kernel/events/core.c ctx_sched_out()/ctx_sched_in() EVENT_TIME, "
	       "perf_event_task_sched_out()",
	.covers = "read_format.TOTAL_TIME_ENABLED",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[2], before, slept = 0, m0, m1, c0, c1, bound = 0;
	int fd, try;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(1);
	for (try = 1; try <= 5; try++) {
		struct timespec nap = { 0, NAP_NS };

		m0 = pa_clock_ns(CLOCK_MONOTONIC);
		c0 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		ASSERT_EQ(read(fd, b, sizeof(b)), 16);
		before = b[1];
		while (clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, &nap) == EINTR)
			;
		ASSERT_EQ(read(fd, b, sizeof(b)), 16);
		c1 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		m1 = pa_clock_ns(CLOCK_MONOTONIC);
		slept = b[1] - before;
		ASSERT_GE(m1 - m0, NAP_NS);	/* the sleep happened */
		bound = (m1 - m0) - NAP_NS + (c1 - c0);
		pa_diag("try %d: time_enabled grew %llu ns over the 200 ms sleep; "
			"on a CPU at most %llu ns (interval %llu ns, thread CPU "
			"time %llu ns)", try, (unsigned long long)slept,
			(unsigned long long)bound, (unsigned long long)(m1 - m0),
			(unsigned long long)(c1 - c0));
		if (slept <= bound)
			break;
	}
	EXPECT_LE(slept, bound);
	close(fd);
}
