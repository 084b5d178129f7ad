#include "perfabi.h"

/*
 * freq = 1 and sample_freq one above kernel.perf_event_max_sample_rate (read
 * at run time; the kernel may only lower it on its own) is refused.
 */
PERFABI_CASE(
	.assertion = "with freq set, a sample_freq above /proc/sys/kernel/perf_event_max_sample_rate fails with EINVAL",
	.ref = "perf_event_open(2), EINVAL: \"sample_freq is higher than the maximum setting\"; kernel/events/core.c perf_event_open(): attr.sample_freq > sysctl_perf_event_sample_rate",
	.covers = "attr.sample_freq attr.freq errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 0);
	long max = pa_sysctl_long("kernel/perf_event_max_sample_rate");

	if (max < 0)
		pa_skip("kernel.perf_event_max_sample_rate is unreadable");
	attr.freq = 1;
	attr.sample_freq = (uint64_t)max + 1;
	pa_diag("perf_event_max_sample_rate %ld, sample_freq %llu", max,
		(unsigned long long)attr.sample_freq);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
