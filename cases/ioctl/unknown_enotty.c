#include "perfabi.h"

PERFABI_CASE(
	.assertion = "an ioctl request the perf fd does not know fails with ENOTTY (the man page lists no ioctl errors)",
	.ref = "ioctl(2) ENOTTY; kernel/events/core.c _perf_ioctl(): default: return -ENOTTY",
	.covers = "ioctl.unknown",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	EXPECT_ERRNO(ioctl(fd, _IO('$', 0x3f), 0), ENOTTY);
	EXPECT_ERRNO(ioctl(fd, _IO('X', 0), 0), ENOTTY);
	close(fd);
}
