#include "perfabi.h"

#include <sys/ioctl.h>

/* A software event can always go on the CPU, so a pinned one never leaves
 * it while enabled: no multiplexing, no error state. */
PERFABI_CASE(
	.assertion = "attr.pinned on a lone software event: it opens, counts, and is on the CPU whenever enabled (time_running == time_enabled > 0)",
	.ref = "perf_event_open(2), pinned: \"the counter should always be on the CPU if at all possible\"; kernel/events/core.c group_can_go_on(): software groups can always go on",
	.covers = "attr.pinned read_format.TOTAL_TIME_RUNNING",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	uint64_t v[3];
	int fd;

	attr.pinned = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, v, 3);
	EXPECT_GT(v[0], 0);
	EXPECT_GT(v[1], 0);
	EXPECT_EQ(v[2], v[1]);
	close(fd);
}
