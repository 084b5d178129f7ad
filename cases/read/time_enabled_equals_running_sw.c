#include "perfabi.h"

/*
 * Both times come from the task context's time at the same points:
 * event_sched_in() and event_sched_out() stamp them with ctx->time, and the
 * context time does not advance while the task is off the CPU
 * (__update_context_time(ctx, false) when it is scheduled in again). A lone
 * software event is never refused a slot, so it is ACTIVE whenever it is
 * enabled and its task runs: time_enabled == time_running, exactly, across
 * sleeps too.
 */
PERFABI_CASE(
	.assertion = "a lone software event is never multiplexed: after it ran, "
		     "with the task sleeping in between, time_enabled equals "
		     "time_running exactly",
	.ref = "perf_event_open(2), Reading results: \"time_enabled ... "
	       "time_running ... Normally these are the same\"; kernel/events/core.c "
	       "__perf_update_times()",
	.covers = "read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[4] = { 7, 7, 7, 7 };
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	usleep(10000);		/* off the CPU for a while */
	pa_work_cpu_ms(5);
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);	/* while enabled */
	EXPECT_GT(b[1], 0);
	EXPECT_EQ(b[1], b[2]);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_GT(b[1], 0);
	EXPECT_EQ(b[1], b[2]);		/* time_enabled == time_running */
	close(fd);
}
