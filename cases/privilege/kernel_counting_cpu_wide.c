#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a cpu-wide event that counts the kernel needs both paranoid < 2 (kernel) and < 1 (cpu) or CAP_PERFMON; either refusal is EACCES",
	.ref = "perf_event_open(2), perf_event_paranoid; kernel/events/core.c perf_allow_kernel(), perf_allow_cpu()",
	.alone = true,
	.covers = "attr.exclude_kernel arg.pid arg.cpu sysctl.perf_event_paranoid errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	int want = pa_expected_errno(PA_NEED_KERNEL);
	int fd;

	if (!want)
		want = pa_expected_errno(PA_NEED_CPU);
	attr.exclude_kernel = 0;
	fd = EXPECT_OPEN_RESULT(&attr, -1, 0, -1, 0, want);
	if (fd >= 0)
		close(fd);
}
