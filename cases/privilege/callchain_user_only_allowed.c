#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a user-only callchain (exclude_kernel and exclude_callchain_kernel set) needs no privilege",
	.ref = "kernel/events/core.c perf_event_open(): perf_allow_kernel() only for !exclude_callchain_kernel; perf_event_open(2) exclude_callchain_kernel",
	.covers = "attr.exclude_callchain_kernel sample.CALLCHAIN sysctl.perf_event_paranoid",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.exclude_callchain_kernel = 1;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_SELF));
	if (fd >= 0)
		close(fd);
}
