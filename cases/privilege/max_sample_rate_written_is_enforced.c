#include "perfabi.h"

PERFABI_CASE(
	.assertion = "writing perf_event_max_sample_rate moves the limit: with it at 1000, sample_freq 1000 opens and 1001 fails with EINVAL",
	.ref = "perf_event_open(2), /proc/sys/kernel/perf_event_max_sample_rate",
	.alone = true,
	.covers = "sysctl.perf_event_max_sample_rate attr.sample_freq errno.EINVAL",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	long pct = pa_sysctl_long("kernel/perf_cpu_time_max_percent");
	int fd;

	if (pct == 0 || pct == 100)
		pa_skip("perf_cpu_time_max_percent is %ld: the sample rate cannot be written", pct);
	ASSERT_OK(pa_sysctl_write("kernel/perf_event_max_sample_rate", "1000"));
	attr.freq = 1;
	attr.sample_freq = 1000;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	close(fd);
	attr.sample_freq = 1001;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
