#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_FILTER on an event that is neither a tracepoint nor on a PMU with address filters fails with EINVAL",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_FILTER; kernel/events/core.c perf_event_set_filter()",
	.covers = "ioctl.SET_FILTER",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid != 0"), EINVAL);
	close(fd);
}
