#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * The page-fault counts are exact (the measured path is faulted in
 * before the ENABLE; first touches of anonymous pages are minor faults).
 * task-clock counts the time the task ran while the group was on: at
 * least the 5 ms of CPU time spent in between, at most the group's
 * time_running.
 */
#define TOUCHED	8
#define WORK_MS	5

PERFABI_CASE(
	.assertion = "a group made only of software events of different kinds (page-faults leader, task-clock and minor-faults siblings) opens and counts as a unit: a group read returns nr = 3 and the values, the page faults exactly, task-clock within the group's running time",
	.ref = "perf_event_open(2), group_fd, PERF_FORMAT_GROUP",
	.covers = "arg.group_fd read_format.GROUP read_format.TOTAL_TIME_RUNNING sw.TASK_CLOCK sw.PAGE_FAULTS_MIN",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr tc = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr mf = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	uint64_t v[5];		/* nr, time_running, page faults, task-clock, minor */
	int leader;

	l.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_RUNNING;
	tc.disabled = mf.disabled = 0;
	leader = ASSERT_OPEN(&l, 0, -1, -1, 0);
	ASSERT_OPEN(&tc, 0, -1, leader, 0);
	ASSERT_OPEN(&mf, 0, -1, leader, 0);

	pa_touch_pages(1);	/* warm up the measured path */
	pa_work_cpu_ms(1);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	pa_work_cpu_ms(WORK_MS);	/* task-clock advances, however coarse the clock */
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(leader, v, 5);
	EXPECT_EQ(v[0], 3);
	EXPECT_EQ(v[2], TOUCHED);
	EXPECT_GE(v[3], PA_WORKED_NS_MIN(WORK_MS));
	EXPECT_LE(v[3], v[1]);
	EXPECT_EQ(v[4], TOUCHED);
}
