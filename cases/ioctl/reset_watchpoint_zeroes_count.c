#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_RESET on a breakpoint event: _perf_event_reset() reads
 * the event (perf_event_read() -> hw_breakpoint_pmu_read()) and sets
 * event->count to 0. A breakpoint event's count is incremented directly by
 * perf_bp_event() -> perf_swevent_event(), one per trap, so the counts are
 * exact: after RESET the count is 0 and goes on from there, by one for
 * each write to the watched u64; the breakpoint stays installed (RESET is
 * no DISABLE). time_enabled and time_running are not reset: they go on
 * from where they were while the event runs, and stay frozen while it is
 * disabled.
 */
#define W1 10
#define W2 5

static volatile uint64_t target __attribute__((aligned(8)));

static void writes(int n)
{
	for (int i = 0; i < n; i++)
		target = (uint64_t)i;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET on a write watchpoint sets its count to 0, while it runs (10 writes read 10, then 0 after the "
		     "RESET, then 5 after 5 more writes) and while it is disabled; time_enabled and time_running are not reset",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"Reset the event count specified by the file descriptor argument to zero. This "
	       "resets only the counts; there is no way to reset the multiplexing time_enabled or time_running values\"; "
	       "kernel/events/core.c _perf_event_reset(), perf_bp_event()",
	.covers = "ioctl.RESET type.BREAKPOINT read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr attr = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	uint64_t a[3], b[3];	/* {value, time_enabled, time_running} */
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	writes(1);		/* disabled: not counted */
	pa_read_u64(fd, a, 3);
	ASSERT_EQ(a[0], 0);

	/* running */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	writes(W1);
	pa_work_cpu_ms(5);	/* the times advance, however coarse the clock */
	pa_read_u64(fd, a, 3);
	ASSERT_EQ(a[0], W1);
	ASSERT_GT(a[1], 0);
	ASSERT_GT(a[2], 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_read_u64(fd, b, 3);
	EXPECT_EQ(b[0], 0);
	EXPECT_GE(b[1], a[1]);	/* running: the times go on from where they were */
	EXPECT_GE(b[2], a[2]);
	writes(W2);
	pa_work_cpu_ms(5);
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], W2);	/* counted on from zero, still installed */
	EXPECT_GT(a[1], b[1]);

	/* stopped */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	writes(3);		/* disabled: not counted */
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], W2);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_read_u64(fd, b, 3);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(b[1], a[1]);	/* disabled: times frozen, not reset */
	EXPECT_EQ(b[2], a[2]);

	/* enabled again: from zero */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	writes(W2);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], W2);
	close(fd);
}
