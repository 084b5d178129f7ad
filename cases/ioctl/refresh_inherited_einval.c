#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH is not supported on inherited events: EINVAL",
	.ref = "kernel/events/core.c _perf_event_refresh(): \"not supported on inherited events\" -> -EINVAL (the man page does not say)",
	.covers = "ioctl.REFRESH attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fd;

	attr.disabled = 1;
	attr.inherit = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1), EINVAL);
	pa_touch_pages(4);
	EXPECT_EQ(pa_read_one(fd), 0);	/* and it was not enabled */
	close(fd);
}
