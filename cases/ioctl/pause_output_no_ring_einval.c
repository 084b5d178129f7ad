#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PAUSE_OUTPUT on an event without a ring buffer fails with EINVAL",
	.ref = "kernel/events/core.c _perf_ioctl() PERF_EVENT_IOC_PAUSE_OUTPUT: !rb -> -EINVAL",
	.covers = "ioctl.PAUSE_OUTPUT",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fd;

	a.disabled = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1), EINVAL);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0), EINVAL);
	close(fd);
}
