#include "perfabi.h"

/*
 * PERF_SAMPLE_CALLCHAIN with sample_max_stack one above
 * kernel.perf_event_max_stack. exclude_callchain_kernel is set so that an
 * unprivileged caller is not refused EACCES first (user callchains only).
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_CALLCHAIN with sample_max_stack above /proc/sys/kernel/perf_event_max_stack fails with EOVERFLOW",
	.ref = "perf_event_open(2), EOVERFLOW (since Linux 4.8); kernel/events/callchain.c get_callchain_buffers()",
	.fix = { .commit = "5af44ca53d01", .subject = "perf: Fix sample_max_stack maximum check", .release = "4.17" },
	.covers = "attr.sample_max_stack sample.CALLCHAIN errno.EOVERFLOW",
	.min_kernel = "4.8",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	long max = pa_sysctl_long("kernel/perf_event_max_stack");

	if (max < 0)
		pa_skip("kernel.perf_event_max_stack is unreadable");
	if (max >= 65535)
		pa_skip("perf_event_max_stack is %ld: no u16 sample_max_stack exceeds it", max);
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;
	attr.sample_max_stack = (uint16_t)(max + 1);
	pa_diag("perf_event_max_stack %ld, sample_max_stack %u", max, attr.sample_max_stack);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EOVERFLOW);
}
