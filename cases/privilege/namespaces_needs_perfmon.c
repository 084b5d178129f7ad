#include "perfabi.h"

PERFABI_CASE(
	.assertion = "attr.namespaces needs CAP_PERFMON (or CAP_SYS_ADMIN) at every paranoid level, else EACCES",
	.ref = "kernel/events/core.c perf_event_open(): attr.namespaces && !perfmon_capable() -> -EACCES",
	.covers = "attr.namespaces cap.CAP_PERFMON cap.CAP_SYS_ADMIN errno.EACCES",
	.min_kernel = "4.12",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	int fd;

	attr.namespaces = 1;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_NAMESPACES));
	if (fd >= 0)
		close(fd);
}
