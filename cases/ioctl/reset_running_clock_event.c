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
 * Nothing reads the event during the 20 ms before the RESET, so the whole
 * of it is pending there. The time is taken on perf's own clock, the one
 * the count runs on: a dummy event of this task, enabled with it, whose
 * time_enabled is the task context's time (read(2) of the dummy leaves
 * the clock event's pending time alone). Its time_enabled is read before
 * the RESET (e0) and after each read of the clock event. Right after the
 * RESET the count can hold only the time since it: at most e1 - e0, tens
 * of microseconds, where the 20 ms left pending would add at least
 * PA_WORKED_NS_MIN(20). After 20 ms more the count has grown by at least
 * PA_WORKED_NS_MIN(20) and is still at most e2 - e0.
 *
 * Both bounds are exact while the thread stays on its CPU: the count and
 * the context time then run on the same local_clock() of one CPU, over
 * nested intervals. task-clock stays exact across switches too (its count
 * is the context time). cpu-clock does not: at a switch it stops at its
 * pmu->del, after the context time stopped, and starts after the context
 * time started again; the switch-out path between them has no bound where
 * a host can stall the vCPU (QEMU TCG translating code: 105 us over one
 * 50 us allowance seen on the sweep's nohrtimers kernel). So where the
 * thread was switched (pa_sched_info()) cpu-clock's bounds allow half of
 * PA_WORKED_NS_MIN(20): a lost RESET would still show by as much again.
 * (CLOCK_MONOTONIC is no bound here: on the jiffies clocksource it falls
 * behind local_clock() by the ticks a guest's host drops, 8 of 20 ms seen
 * under QEMU TCG.) A RESET of the stopped event reads 0 exactly.
 */
#define WORK_MS	20

static uint64_t enabled(int fd)
{
	uint64_t v[2];

	pa_read_u64(fd, v, 2);
	return v[1];
}

static void reset_running(uint64_t config, const char *name, bool count_stops_late)
{
	struct perf_event_attr attr = pa_sw_attr(config);
	struct perf_event_attr dattr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	uint64_t e0, e1, e2, c0, c1, c2, d, n0, n1, slack;
	int fd, dfd;

	dattr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	dfd = ASSERT_OPEN(&dattr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_work_cpu_ms(5);		/* fault in the code and stack first */
	ASSERT_OK(ioctl(dfd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(WORK_MS);	/* not read: all of it pending */
	pa_sched_info(&d, &n0);
	e0 = enabled(dfd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	c0 = pa_read_one(fd);
	e1 = enabled(dfd);
	pa_work_cpu_ms(WORK_MS);
	c1 = pa_read_one(fd);
	e2 = enabled(dfd);
	pa_sched_info(&d, &n1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	c2 = pa_read_one(fd);
	slack = count_stops_late && n1 != n0 ? PA_WORKED_NS_MIN(WORK_MS) / 2 : 0;
	pa_diag("%s: %llu ns right after the RESET (%llu ns of perf's clock since before it), %llu ns after %d ms more (%llu ns), %llu ns at DISABLE; %llu switches",
		name, (unsigned long long)c0, (unsigned long long)(e1 - e0),
		(unsigned long long)c1, WORK_MS, (unsigned long long)(e2 - e0),
		(unsigned long long)c2, (unsigned long long)(n1 - n0));
	EXPECT_LE(c0, e1 - e0 + slack);	/* the time before it is gone */
	EXPECT_GE(c1 - c0, PA_WORKED_NS_MIN(WORK_MS));	/* counts on */
	EXPECT_LE(c1, e2 - e0 + slack);	/* from zero */
	EXPECT_GE(c2, c1);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));	/* stopped */
	EXPECT_EQ(pa_read_one(fd), 0);
	close(dfd);
	close(fd);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET of a running cpu-clock or task-clock counter sets its count to zero, the time run before it included: after 20 ms unread, the count read right after the RESET is at most the time perf's clock ran since just before the RESET (a dummy event's time_enabled; for cpu-clock + PA_WORKED_NS_MIN(20)/2 where the thread was switched); it then counts on from zero (at least PA_WORKED_NS_MIN(20) over 20 ms more, at most perf's clock since just before the RESET); a RESET of the disabled event reads 0",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"Reset the event count specified by the file descriptor argument to zero\"; kernel/events/core.c _perf_event_reset() (perf_event_read() before local64_set(count, 0)), cpu_clock_event_read(), task_clock_event_read()",
	.covers = "ioctl.RESET sw.CPU_CLOCK sw.TASK_CLOCK",
	.probe = pa_probe_self_perf,
) {
	reset_running(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock", true);
	reset_running(PERF_COUNT_SW_TASK_CLOCK, "task-clock", false);
}
