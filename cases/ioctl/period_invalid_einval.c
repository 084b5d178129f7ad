#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD rejects a period of 0 and one with bit 63 set (EINVAL), on a counting event it is EINVAL, and a bad pointer is EFAULT",
	.ref = "kernel/events/core.c _perf_event_period() and _perf_ioctl() (copy_from_user -> EFAULT); perf_event_open(2) PERF_EVENT_IOC_PERIOD",
	.covers = "ioctl.PERIOD",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	uint64_t v;
	int fd, cnt;

	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	v = 0;
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	v = 1ULL << 63;
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_PERIOD, (uint64_t *)8), EFAULT);
	v = 1ULL << 62;		/* large but legal */
	EXPECT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));

	attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	cnt = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	v = 10;
	EXPECT_ERRNO(ioctl(cnt, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	close(cnt);
	close(fd);
}
