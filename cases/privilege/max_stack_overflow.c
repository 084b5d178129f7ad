#include "perfabi.h"

PERFABI_CASE(
	.assertion = "sample_max_stack above perf_event_max_stack fails with EOVERFLOW (callchain sampling), for every identity",
	.ref = "perf_event_open(2), EOVERFLOW \"sample_max_stack ... larger than ... /proc/sys/kernel/perf_event_max_stack\"; kernel/events/callchain.c get_callchain_buffers()",
	.covers = "sysctl.perf_event_max_stack attr.sample_max_stack errno.EOVERFLOW",
	.min_kernel = "4.8",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long max = pa_sysctl_long("kernel/perf_event_max_stack");
	int want = pa_expected_errno(PA_NEED_SELF);

	ASSERT_GE(max, 0);
	if (max >= 65535)
		pa_skip("perf_event_max_stack %ld: no u16 above it", max);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.exclude_callchain_kernel = 1;
	attr.sample_max_stack = (uint16_t)(max + 1);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want ? want : EOVERFLOW);
}
