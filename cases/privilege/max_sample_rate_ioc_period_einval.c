#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on a frequency event with a new frequency above perf_event_max_sample_rate fails with EINVAL",
	.ref = "kernel/events/core.c perf_event_period(): attr.freq && value > sysctl_perf_event_sample_rate -> -EINVAL",
	.covers = "sysctl.perf_event_max_sample_rate ioctl.PERIOD errno.EINVAL",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	long max = pa_sysctl_long("kernel/perf_event_max_sample_rate");
	int want = pa_expected_errno(PA_NEED_SELF);
	uint64_t v;
	int fd;

	ASSERT_GT(max, 10);
	attr.freq = 1;
	attr.sample_freq = 10;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	v = (uint64_t)max + 1;
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v), EINVAL);
	v = 20;
	EXPECT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &v));
	close(fd);
}
