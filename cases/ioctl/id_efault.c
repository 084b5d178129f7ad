#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_ID writes the event's id through the pointer argument; a bad pointer fails with EFAULT",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_ID (since Linux 3.12); kernel/events/core.c _perf_ioctl(): copy_to_user -> -EFAULT",
	.covers = "ioctl.ID",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t id = 0;
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_ID, (uint64_t *)8), EFAULT);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	EXPECT_NE(id, 0);
	close(fd);
}
