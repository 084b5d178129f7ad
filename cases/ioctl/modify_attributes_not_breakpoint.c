#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_MODIFY_ATTRIBUTES is only supported for breakpoint events: on a page-fault software event it fails with EOPNOTSUPP; a different type is EINVAL",
	.ref = "kernel/events/core.c perf_event_modify_attr(): type mismatch -> -EINVAL; no modify function for the type -> -EOPNOTSUPP",
	.covers = "ioctl.MODIFY_ATTRIBUTES",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), EOPNOTSUPP);
	a.type = PERF_TYPE_BREAKPOINT;
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a), EINVAL);
	close(fd);
}
