#include "perfabi.h"

/*
 * A group bound to CPU A on a thread that runs on A, then on B: on B the
 * task context runs but the group is filtered out (event_filter_match()),
 * so it stays INACTIVE and time_enabled grows without time_running. The
 * two times then differ and their order in the layout shows. A task-clock
 * member runs exactly when the group runs, from the same context time
 * stamps: its value equals time_running.
 */
PERFABI_CASE(
	.assertion = "with PERF_FORMAT_GROUP, time_enabled and time_running come "
		     "once, after nr and before the members: nr, time_enabled, "
		     "time_running, then {value, id} per member; for a group that "
		     "ran only part of the time it was enabled, time_enabled > "
		     "time_running",
	.ref = "perf_event_open(2), Reading results: struct read_format with "
	       "PERF_FORMAT_GROUP; kernel/events/core.c perf_read_group(), "
	       "__perf_read_group_add()",
	.alone = true,
	.covers = "read_format.GROUP read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING read_format.ID",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t b[16] = { 0 }, id[2];
	int cpus[2], fd[2];

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	fd[0] = ASSERT_OPEN(&attr, 0, cpus[0], -1, 0);
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.disabled = 0;	/* follows the leader */
	fd[1] = ASSERT_OPEN(&attr, 0, cpus[0], fd[0], 0);
	for (int i = 0; i < 2; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
	/* fault in the code the counted part runs, so only fresh pages fault */
	pa_touch_pages(16);
	pa_work_cpu_ms(1);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);	/* on A: counted */
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_OK(pa_pin_cpu(cpus[1]));
	pa_work_cpu_ms(5);	/* on B: enabled, not running */
	pa_touch_pages(8);	/* on B: not counted */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(read(fd[0], b, sizeof(b)), 3 * 8 + 2 * 16);
	EXPECT_EQ(b[0], 2);		/* nr */
	EXPECT_GT(b[1], b[2]);		/* time_enabled > time_running */
	EXPECT_GT(b[2], 0);		/* time_running */
	EXPECT_EQ(b[3], 16);		/* leader value: the faults on A */
	EXPECT_EQ(b[4], id[0]);
	EXPECT_EQ(b[5], b[2]);		/* task-clock: ns while running */
	EXPECT_EQ(b[6], id[1]);
	for (int i = 0; i < 2; i++)
		close(fd[i]);
}
