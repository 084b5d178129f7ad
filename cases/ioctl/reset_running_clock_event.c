#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_RESET of a running cpu-clock or task-clock counter. A
 * clock's count is brought up to date only when it is read
 * (cpu_clock_event_read(), task_clock_event_read(): count += now -
 * prev_count, prev_count = now) or stopped; _perf_event_reset() first
 * reads the event (perf_event_read() -> pmu->read) and only then sets the
 * count to 0, so the time run before the RESET is folded in and dropped,
 * and counting goes on from 0. Were prev_count left behind, the next read
 * would bring back all the time since the last update.
 *
 * Nothing reads the event during the PEND ms before the RESET, so the
 * whole of it is pending there. Right after the RESET the count can hold
 * only the time since it: at most the wall time around the RESET and the
 * read as pa_wall_bound_ns() allows it (local_clock() against
 * CLOCK_MONOTONIC: one resolution of CLOCK_MONOTONIC, a whole tick on a
 * jiffies clocksource, + 2 % + 0.2 ms), far below the PA_WORKED_NS_MIN(PEND)
 * the time left pending would add: PEND is 20 ms plus four resolutions. After
 * 20 ms more the count has grown by at least PA_WORKED_NS_MIN(20) and is
 * still at most the wall time since the RESET. A RESET of the stopped event
 * reads 0 exactly.
 */
#define WORK_MS	20

static void reset_running(uint64_t config, const char *name)
{
	struct perf_event_attr attr = pa_sw_attr(config);
	int pend = WORK_MS + (int)(4 * pa_clock_res_ns(CLOCK_MONOTONIC) / 1000000);
	uint64_t w0, w1, w2, c0, c1, c2;
	int fd;

	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_work_cpu_ms(5);		/* fault in the code and stack first */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(pend);		/* not read: all of it pending */
	w0 = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	c0 = pa_read_one(fd);
	w1 = pa_clock_ns(CLOCK_MONOTONIC);
	pa_work_cpu_ms(WORK_MS);
	c1 = pa_read_one(fd);
	w2 = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	c2 = pa_read_one(fd);
	pa_diag("%s: %d ms pending; %llu ns right after the RESET (%llu ns of wall time around it), %llu ns after %d ms more (%llu ns of wall time), %llu ns at DISABLE",
		name, pend, (unsigned long long)c0, (unsigned long long)(w1 - w0),
		(unsigned long long)c1, WORK_MS, (unsigned long long)(w2 - w0),
		(unsigned long long)c2);
	EXPECT_LE(c0, pa_wall_bound_ns(w1 - w0));	/* the time before it is gone */
	EXPECT_GE(c1 - c0, PA_WORKED_NS_MIN(WORK_MS));	/* counts on */
	EXPECT_LE(c1, pa_wall_bound_ns(w2 - w0));	/* from zero */
	EXPECT_GE(c2, c1);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));	/* stopped */
	EXPECT_EQ(pa_read_one(fd), 0);
	close(fd);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET of a running cpu-clock or task-clock counter sets its count to zero, the time run before it included: after 20 ms (plus four resolutions of CLOCK_MONOTONIC) unread, the count read right after the RESET is at most the wall time around the RESET and the read (+ one resolution of CLOCK_MONOTONIC + 2 % + 0.2 ms); it then counts on from zero (at least PA_WORKED_NS_MIN(20) over 20 ms more, at most the wall time since the RESET); a RESET of the disabled event reads 0",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"Reset the event count specified by the file descriptor argument to zero\"; kernel/events/core.c _perf_event_reset() (perf_event_read() before local64_set(count, 0)), cpu_clock_event_read(), task_clock_event_read()",
	.covers = "ioctl.RESET sw.CPU_CLOCK sw.TASK_CLOCK",
	.probe = pa_probe_self_perf,
) {
	reset_running(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	reset_running(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
}
