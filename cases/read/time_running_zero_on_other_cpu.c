#include "perfabi.h"

/*
 * A per-task event with cpu >= 0 lives in the task's context but is only
 * scheduled while the task runs on that CPU (event_filter_match()). On any
 * other CPU the context is active and its time advances, so the enabled
 * event stays INACTIVE: __perf_update_times() adds the context time to
 * time_enabled (state >= INACTIVE) and nothing to time_running (state
 * ACTIVE only), and the counter is never started.
 */
PERFABI_CASE(
	.assertion = "an event on the calling thread (pid 0) bound to a CPU the "
		     "thread never runs on is enabled but never running: "
		     "time_enabled grows while the thread runs elsewhere, "
		     "time_running and the value stay exactly 0",
	.ref = "perf_event_open(2), \"pid == 0 and cpu >= 0 ... only when running "
	       "on the specified CPU\"; read_format time_enabled/time_running; "
	       "kernel/events/core.c __perf_update_times(), event_filter_match()",
	.alone = true,
	.covers = "read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING arg.cpu",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	uint64_t b[4] = { 7, 7, 7, 7 }, first;
	int cpus[2], fd;

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, cpus[1], -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[0], 0);		/* value: never counted */
	EXPECT_GT(b[1], 0);		/* time_enabled */
	EXPECT_EQ(b[2], 0);		/* time_running */
	first = b[1];
	pa_work_cpu_ms(5);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[0], 0);
	EXPECT_GT(b[1], first);		/* still enabled: grew */
	EXPECT_EQ(b[2], 0);
	close(fd);
}
