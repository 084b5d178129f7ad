#include "perfabi.h"

PERFABI_CASE(
	.assertion = "counting the kernel (exclude_kernel = 0) needs perf_event_paranoid < 2 or CAP_PERFMON, else EACCES",
	.ref = "perf_event_open(2), perf_event_paranoid \"2 Allow only user-space measurements\"; kernel/events/core.c perf_event_open() -> perf_allow_kernel()",
	.covers = "attr.exclude_kernel sysctl.perf_event_paranoid cap.CAP_PERFMON errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int fd;

	attr.exclude_kernel = 0;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_KERNEL));
	if (fd >= 0)
		close(fd);
}
