#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * The times of a tracepoint event come from core code, as for any event:
 * event_sched_in()/event_sched_out() and __perf_update_times() stamp them
 * with the task context's time, which stands still while the task is off
 * the CPU. A tracepoint event lives in the software context
 * (perf_tracepoint.task_ctx_nr = perf_sw_context) and is never
 * multiplexed; perf_trace_add() only links the event into the
 * tracepoint's per-CPU hlist and cannot fail at sched-in. Hence, exactly:
 * - never enabled: value, time_enabled and time_running are 0;
 * - enabled (across a sleep too): time_enabled == time_running > 0,
 *   growing, and the value counts the calls (3);
 * - disabled: both equal and frozen, and a call is not counted.
 * A failed pmu->add (time_running < time_enabled), or times that run on
 * while disabled, fail here.
 */
#define CALLS 3

PERFABI_CASE(
	.assertion = "a tracepoint event's time_enabled and time_running: both 0 before the first enable; while it is enabled, across a "
		     "sleep, both > 0, growing and exactly equal (a tracepoint event is never multiplexed), the value the 3 calls made; "
		     "after DISABLE both equal and frozen",
	.ref = "perf_event_open(2), Reading results: time_enabled, time_running \"Total time the event was enabled and running. Normally these values are the same\"; read_format "
	       "PERF_FORMAT_TOTAL_TIME_ENABLED, PERF_FORMAT_TOTAL_TIME_RUNNING; kernel/events/core.c __perf_update_times(), "
	       "event_sched_in(); kernel/trace/trace_event_perf.c perf_trace_add() (perf_sw_context)",
	.covers = "read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING type.TRACEPOINT",
	PA_HIT_NEEDS_TRACEPOINT,
) {
	int want;
	struct perf_event_attr attr = pa_hit_attr(PA_HIT_TRACEPOINT, &want);
	uint64_t b[4] = { 7, 7, 7, 7 }, first;	/* {value, enabled, running} */
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return;		/* the refusal the rules give was the check */
	ASSERT_GE(fd, 0);
	pa_hit(PA_HIT_TRACEPOINT, 1);	/* open but never enabled */
	pa_work_cpu_ms(5);
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(b[1], 0);
	EXPECT_EQ(b[2], 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_hit(PA_HIT_TRACEPOINT, CALLS);
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);	/* while enabled */
	EXPECT_EQ(b[0], CALLS);
	EXPECT_GT(b[1], 0);
	EXPECT_EQ(b[1], b[2]);
	first = b[1];
	usleep(10000);		/* off the CPU for a while */
	pa_work_cpu_ms(5);
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);	/* still enabled */
	EXPECT_GT(b[1], first);
	EXPECT_EQ(b[1], b[2]);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hit(PA_HIT_TRACEPOINT, 1);	/* disabled: not counted */
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[0], CALLS);
	EXPECT_GT(b[1], 0);
	EXPECT_EQ(b[1], b[2]);
	first = b[1];
	pa_work_cpu_ms(5);	/* disabled: the times stand still */
	usleep(10000);
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[1], first);
	EXPECT_EQ(b[2], first);
	close(fd);
}
