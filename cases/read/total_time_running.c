#include "perfabi.h"

/*
 * task-clock counts the ns its task ran while the event was on the CPU,
 * from the same context time stamps as time_running (event_sched_in()/
 * task_clock_event_start() and event_sched_out()/task_clock_event_stop()
 * all read ctx->time): after the event ran the two are equal, exactly.
 */
PERFABI_CASE(
	.assertion = "PERF_FORMAT_TOTAL_TIME_RUNNING appends time_running after the value: 0 while the event never ran, then the time it was on the CPU (for task-clock exactly its value), frozen once disabled",
	.ref = "perf_event_open(2), read_format: PERF_FORMAT_TOTAL_TIME_RUNNING; Reading results; kernel/events/core.c task_clock_event_start()/stop(), __perf_update_times()",
	.covers = "attr.read_format read_format.TOTAL_TIME_RUNNING sw.TASK_CLOCK",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	uint64_t b[3] = { 7, 7, 7 }, ran;
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_work_cpu_ms(5);	/* disabled: runs no time */
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(b[1], 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	EXPECT_GT(b[1], 0);
	EXPECT_EQ(b[0], b[1]);		/* task-clock ns == time on the CPU */
	ran = b[1];
	pa_work_cpu_ms(5);
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	EXPECT_EQ(b[1], ran);		/* frozen while disabled */
	close(fd);
}
