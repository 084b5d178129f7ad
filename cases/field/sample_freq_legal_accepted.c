#include "perfabi.h"

PERFABI_CASE(
	.assertion = "with freq set, a sample_freq at or below /proc/sys/kernel/perf_event_max_sample_rate is accepted",
	.ref = "perf_event_open(2), sample_freq: \"can be used if you wish to use frequency rather than period\"; kernel/events/core.c perf_event_open() sample rate check",
	.covers = "attr.sample_freq attr.freq",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 0);
	long max = pa_sysctl_long("kernel/perf_event_max_sample_rate");
	int fd;

	if (max < 1)
		pa_skip("kernel.perf_event_max_sample_rate is unreadable or 0");
	attr.freq = 1;
	attr.sample_freq = max < 100 ? (uint64_t)max : 100;
	attr.disabled = 1;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
