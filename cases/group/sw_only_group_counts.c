#include "perfabi.h"

#include <sys/ioctl.h>

PERFABI_CASE(
	.assertion = "a group made only of software events of different kinds (page-faults leader, task-clock and minor-faults siblings) opens and counts as a unit: a group read returns nr = 3 and the values",
	.ref = "perf_event_open(2), group_fd, PERF_FORMAT_GROUP",
	.covers = "arg.group_fd read_format.GROUP",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr tc = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr mf = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	uint64_t v[4];
	int leader;

	l.read_format = PERF_FORMAT_GROUP;
	tc.disabled = mf.disabled = 0;
	leader = ASSERT_OPEN(&l, 0, -1, -1, 0);
	ASSERT_OPEN(&tc, 0, -1, leader, 0);
	ASSERT_OPEN(&mf, 0, -1, leader, 0);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(8);
	pa_work_cpu_ms(5);	/* task-clock advances, however coarse the clock */
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(leader, v, 4);
	EXPECT_EQ(v[0], 3);
	EXPECT_GE(v[1], 8);
	EXPECT_GT(v[2], 0);
	EXPECT_GE(v[3], 8);	/* anonymous first touches are minor faults */
}
