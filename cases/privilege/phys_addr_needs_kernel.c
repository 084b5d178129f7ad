#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_PHYS_ADDR is kernel data: paranoid < 2 or CAP_PERFMON, else EACCES",
	.ref = "kernel/events/core.c perf_event_open(): \"Only privileged users can get physical addresses\" -> perf_allow_kernel()",
	.covers = "sample.PHYS_ADDR sysctl.perf_event_paranoid cap.CAP_PERFMON errno.EACCES",
	.min_kernel = "4.14",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PHYS_ADDR;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_KERNEL));
	if (fd >= 0)
		close(fd);
}
