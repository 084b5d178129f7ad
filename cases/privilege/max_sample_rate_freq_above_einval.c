#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a frequency above perf_event_max_sample_rate fails with EINVAL for every identity",
	.ref = "perf_event_open(2), /proc/sys/kernel/perf_event_max_sample_rate \"...the EINVAL error is returned\"; kernel/events/core.c perf_event_open()",
	.covers = "sysctl.perf_event_max_sample_rate attr.freq attr.sample_freq errno.EINVAL",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	long max = pa_sysctl_long("kernel/perf_event_max_sample_rate");
	int want = pa_expected_errno(PA_NEED_SELF);

	ASSERT_GT(max, 0);
	attr.freq = 1;
	attr.sample_freq = (uint64_t)max + 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want ? want : EINVAL);
}
