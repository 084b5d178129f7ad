#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH on a counting (non-sampling) event fails with EINVAL: there are no overflows to count",
	.ref = "kernel/events/core.c _perf_event_refresh(): !is_sampling_event() -> -EINVAL",
	.covers = "ioctl.REFRESH",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1), EINVAL);
	close(fd);
}
