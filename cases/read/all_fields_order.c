#include "perfabi.h"

/*
 * Every field must differ from its neighbours, or a swap cannot show. A
 * lone software event has time_enabled == time_running, so the event is
 * bound to CPU A and the thread runs on A, then on B: on B the task
 * context runs but the event is filtered out (event_filter_match()), so it
 * is enabled without running. value: the 16 faults made on A (a few; the
 * times are millions of ns), time_enabled > time_running > 0, id: the
 * PERF_EVENT_IOC_ID, lost: 0 for a counting event.
 */
PERFABI_CASE(
	.assertion = "with TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING, ID (and LOST since 6.0) the fields come in the documented order: value, time_enabled, time_running, id, lost",
	.ref = "perf_event_open(2), Reading results: struct read_format without PERF_FORMAT_GROUP",
	.alone = true,
	.covers = "attr.read_format read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING read_format.ID read_format.LOST",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	bool lost = pa_since("6.0", "PERF_FORMAT_LOST");
	uint64_t b[8] = { 0 }, id = 0;
	ssize_t want = lost ? 40 : 32;
	int cpus[2], fd;

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	if (lost)
		attr.read_format |= PERF_FORMAT_LOST;
	fd = ASSERT_OPEN(&attr, 0, cpus[0], -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	/* fault in the code the counted part runs, so only fresh pages fault */
	pa_touch_pages(16);
	pa_work_cpu_ms(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);	/* on A: counted */
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_OK(pa_pin_cpu(cpus[1]));
	pa_work_cpu_ms(5);	/* on B: enabled, not running */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(read(fd, b, sizeof(b)), want);
	EXPECT_EQ(b[0], 16);			/* value */
	EXPECT_GT(b[1], b[2]);			/* time_enabled */
	EXPECT_GT(b[2], 0);			/* time_running */
	EXPECT_EQ(b[3], id);			/* id */
	if (lost)
		EXPECT_EQ(b[4], 0);		/* lost */
	close(fd);
}
