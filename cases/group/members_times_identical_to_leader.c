#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * A group of software events on this task is always on while the task
 * runs, so time_enabled == time_running and a member that kept its own
 * clock (or a swapped pair) would not show. Here the group is bound to
 * CPU B (pid 0, cpu B): while the task runs on CPU A the group is enabled
 * but cannot go on, so time_enabled > time_running > 0. Every member must
 * still report exactly the leader's pair: the group is scheduled as a
 * unit, and perf_event_update_sibling_time() updates the members' times
 * with the leader's. The PERF_FORMAT_GROUP read carries one pair for the
 * whole group; it is each member's own.
 */
#define ON_A	8	/* pages touched on CPU A: not counted */
#define ON_B	16	/* pages touched on CPU B: counted */
#define WORK_MS	5	/* CPU time spent on each CPU */

static void warm_up(int fd)
{
	/* fault in the code and stack of the measured path beforehand, so
	 * the counted faults are exactly the touched pages */
	pa_touch_pages(1);
	pa_work_cpu_ms(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
}

PERFABI_CASE(
	.assertion = "the members of a group report exactly the leader's time_enabled and time_running, also when the two differ (a group bound to CPU B while its task runs 5 ms on CPU A, then 5 ms on B: running and enabled - running each at least half of 5 ms), and the one time_enabled/time_running pair of a PERF_FORMAT_GROUP read is every member's own",
	.ref = "perf_event_open(2), group_fd: \"An event group is scheduled onto the CPU as a unit ... the values of the member events can be meaningfully compared\"; read_format: time_enabled, time_running; kernel/events/core.c perf_event_update_sibling_time(), __perf_effective_state()",
	.alone = true,
	.covers = "arg.group_fd arg.cpu read_format.GROUP read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING read_format.ID",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	const uint64_t want[3] = { ON_B, ON_B, ON_B };
	uint64_t g[3 + 3 * 2], m[4], id[3];
	int cpus[2], fd[3];

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");
	ASSERT_OK(pa_pin_cpu(cpus[0]));

	l.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	s.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	s.disabled = 0;		/* members follow the leader */
	fd[0] = ASSERT_OPEN(&l, 0, cpus[1], -1, 0);
	fd[1] = ASSERT_OPEN(&s, 0, cpus[1], fd[0], 0);
	s.config = PERF_COUNT_SW_PAGE_FAULTS_MIN;	/* first touches are minor */
	fd[2] = ASSERT_OPEN(&s, 0, cpus[1], fd[0], 0);
	for (int i = 0; i < 3; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));

	warm_up(fd[0]);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(ON_A);		/* on CPU A: enabled, not running */
	pa_work_cpu_ms(WORK_MS);
	ASSERT_OK(pa_pin_cpu(cpus[1]));	/* returns on CPU B */
	pa_touch_pages(ON_B);		/* on CPU B: running */
	pa_work_cpu_ms(WORK_MS);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	pa_read_u64(fd[0], g, 3 + 3 * 2);
	ASSERT_EQ(g[0], 3);			/* nr */
	/* it ran all the time on CPU B and was off all the time on CPU A */
	EXPECT_GE(g[2], PA_WORKED_NS_MIN(WORK_MS));
	ASSERT_GT(g[1], g[2]);
	EXPECT_GE(g[1] - g[2], PA_WORKED_NS_MIN(WORK_MS));
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(g[3 + 2 * i], want[i]);
		EXPECT_EQ(g[4 + 2 * i], id[i]);
	}
	for (int i = 1; i < 3; i++) {
		pa_read_u64(fd[i], m, 4);	/* value, enabled, running, id */
		EXPECT_EQ(m[0], want[i]);
		EXPECT_EQ(m[1], g[1]);
		EXPECT_EQ(m[2], g[2]);
		EXPECT_EQ(m[3], id[i]);
	}
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
