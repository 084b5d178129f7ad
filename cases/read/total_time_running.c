#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_FORMAT_TOTAL_TIME_RUNNING appends time_running after the value: 0 while the event never ran, then the time it was on the CPU",
	.ref = "perf_event_open(2), read_format: PERF_FORMAT_TOTAL_TIME_RUNNING; Reading results",
	.covers = "attr.read_format read_format.TOTAL_TIME_RUNNING",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	uint64_t b[3] = { 0, 0, 0 };
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	EXPECT_EQ(b[1], 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), 16);
	EXPECT_GT(b[1], 0);
	EXPECT_GT(b[0], 0);
	close(fd);
}
