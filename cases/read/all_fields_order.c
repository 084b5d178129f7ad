#include "perfabi.h"

PERFABI_CASE(
	.assertion = "with TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING, ID (and LOST since 6.0) the fields come in the documented order: value, time_enabled, time_running, id, lost",
	.ref = "perf_event_open(2), Reading results: struct read_format without PERF_FORMAT_GROUP",
	.covers = "attr.read_format read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING read_format.ID read_format.LOST",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	bool lost = pa_since("6.0", "PERF_FORMAT_LOST");
	uint64_t b[8] = { 0 }, id = 0;
	ssize_t want = lost ? 40 : 32;
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	if (lost)
		attr.read_format |= PERF_FORMAT_LOST;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), want);
	EXPECT_GT(b[0], 0);			/* value: task-clock ns */
	EXPECT_GT(b[1], 0);			/* time_enabled */
	EXPECT_GE(b[1], b[2]);			/* time_running <= enabled */
	EXPECT_GT(b[2], 0);
	EXPECT_EQ(b[3], id);			/* id */
	if (lost)
		EXPECT_EQ(b[4], 0);		/* lost */
	close(fd);
}
