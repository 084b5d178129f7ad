#include "perfabi.h"

#include <time.h>

/*
 * A per-task event's times come from its task context, whose clock runs
 * only while the task is on a CPU (ctx_sched_out() stops it, ctx_sched_in()
 * restarts it without adding the gap). Sleeping 200 ms adds only the few
 * microseconds spent in the syscall, far below half the sleep.
 */
PERFABI_CASE(
	.assertion = "an enabled per-task event accrues time_enabled only while the "
		     "task runs: sleeping 200 ms adds less than 100 ms to it",
	.ref = "perf_event_open(2), read_format: \"time_enabled ... total time the "
	       "event was enabled\" (of a task event: while the task is scheduled); "
	       "kernel/events/core.c ctx_sched_out()/ctx_sched_in() EVENT_TIME",
	.covers = "read_format.TOTAL_TIME_ENABLED",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct timespec nap = { 0, 200 * 1000 * 1000 };
	uint64_t b[2], before, slept;
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(1);
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	before = b[1];
	ASSERT_OK(nanosleep(&nap, NULL));
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	slept = b[1] - before;
	pa_diag("time_enabled grew %llu ns over the 200 ms sleep",
		(unsigned long long)slept);
	EXPECT_LT(slept, 100 * 1000 * 1000);
	close(fd);
}
