#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a tracepoint that counts in the kernel (exclude_kernel = 0) falls under the kernel rule: paranoid < 2 or CAP_PERFMON, else EACCES",
	.ref = "perf_event_open(2), perf_event_paranoid; kernel/events/core.c perf_event_open() -> perf_allow_kernel()",
	.covers = "type.TRACEPOINT attr.exclude_kernel errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
	int fd;

	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_KERNEL));
	if (fd >= 0)
		close(fd);
}
