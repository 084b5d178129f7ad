#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * attr.exclusive keeps other *hardware* groups off the CPU while the
 * group is on. Software groups always go on, so two exclusive software
 * groups on the same task both run the whole time: time_running equals
 * time_enabled, which covers the 5 ms of CPU time the task spent in
 * between (at least PA_WORKED_NS_MIN of it), and each counts exactly the touched pages (the measured
 * path is faulted in before the first ENABLE).
 */
#define TOUCHED	8
#define WORK_MS	5

PERFABI_CASE(
	.assertion = "attr.exclusive on a software group leader is accepted and does not keep another exclusive software group off the CPU: both run all the time they are enabled and count every page fault",
	.ref = "perf_event_open(2), exclusive: \"it should be the only group using the CPU's counters\"; kernel/events/core.c group_can_go_on(): \"Groups consisting entirely of software events can always go on\" (checked before cpc->exclusive)",
	.covers = "attr.exclusive arg.group_fd",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v[2][3];	/* value, enabled, running */
	int fd[2];

	a.exclusive = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd[0] = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&a, 0, -1, -1, 0);

	pa_touch_pages(1);	/* warm up the measured path */
	pa_work_cpu_ms(1);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(fd[1], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	pa_work_cpu_ms(WORK_MS);	/* time_enabled advances, however coarse the clock */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fd[1], PERF_EVENT_IOC_DISABLE, 0));
	for (int i = 0; i < 2; i++) {
		pa_read_u64(fd[i], v[i], 3);
		EXPECT_EQ(v[i][0], TOUCHED);
		EXPECT_GE(v[i][1], PA_WORKED_NS_MIN(WORK_MS));
		EXPECT_EQ(v[i][2], v[i][1]);
	}
}
