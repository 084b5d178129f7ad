#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_CALLCHAIN with sample_max_stack equal to /proc/sys/kernel/perf_event_max_stack is accepted",
	.ref = "perf_event_open(2), sample_max_stack and EOVERFLOW (only larger is refused); kernel/events/callchain.c get_callchain_buffers()",
	.covers = "attr.sample_max_stack sample.CALLCHAIN",
	.min_kernel = "4.8",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);
	long max = pa_sysctl_long("kernel/perf_event_max_stack");
	int fd;

	if (max < 1 || max > 65535)
		pa_skip("kernel.perf_event_max_stack is unreadable or out of u16 range (%ld)", max);
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;
	attr.sample_max_stack = (uint16_t)max;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
