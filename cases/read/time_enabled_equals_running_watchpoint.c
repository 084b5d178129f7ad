#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * The times of a breakpoint event come from core code, as for any event:
 * event_sched_in()/event_sched_out() and __perf_update_times() stamp them
 * with the task context's time, which stands still while the task is off
 * the CPU. A breakpoint event lives in the software context
 * (perf_breakpoint.task_ctx_nr = perf_sw_context) and is never
 * multiplexed; its slot was reserved at open (register_perf_hw_breakpoint()
 * -> reserve_bp_slot()), so hw_breakpoint_add() -> arch_install_hw_breakpoint()
 * cannot be refused at sched-in. Hence, exactly:
 * - never enabled: value, time_enabled and time_running are 0;
 * - enabled (across a sleep too): time_enabled == time_running > 0, growing;
 * - disabled: both equal and frozen.
 * A failed pmu->add (time_running < time_enabled), or times that run on
 * while disabled, fail here. Nothing has to trap: the times do not depend
 * on the debug registers reaching the CPU, so this runs without bp-trap.
 */
static volatile uint64_t target __attribute__((aligned(8)));

PERFABI_CASE(
	.assertion = "a write watchpoint's time_enabled and time_running: both 0 before the first enable; while it is enabled, across a "
		     "sleep, both > 0, growing and exactly equal (a breakpoint event is never multiplexed); after DISABLE both equal and frozen",
	.ref = "perf_event_open(2), Reading results: time_enabled, time_running \"Total time the event was enabled and running. Normally these values are the same\"; read_format "
	       "PERF_FORMAT_TOTAL_TIME_ENABLED, PERF_FORMAT_TOTAL_TIME_RUNNING; kernel/events/core.c __perf_update_times(), "
	       "event_sched_in(); kernel/events/hw_breakpoint.c hw_breakpoint_add() (perf_sw_context)",
	.covers = "read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING type.BREAKPOINT",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	uint64_t b[4] = { 7, 7, 7, 7 }, first;	/* {value, enabled, running} */
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_work_cpu_ms(5);	/* open but never enabled */
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(b[1], 0);
	EXPECT_EQ(b[2], 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);	/* while enabled */
	EXPECT_GT(b[1], 0);
	EXPECT_EQ(b[1], b[2]);
	first = b[1];
	usleep(10000);		/* off the CPU for a while */
	pa_work_cpu_ms(5);
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);	/* still enabled */
	EXPECT_GT(b[1], first);
	EXPECT_EQ(b[1], b[2]);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
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
