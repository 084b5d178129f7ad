#include "perfabi.h"

PERFABI_CASE(
	.assertion = "paranoid 2 restricts kernel measurement only: a user-only event with exclude_hv = 0 opens for every identity (only exclude_kernel is checked)",
	.ref = "kernel/events/core.c perf_event_open(): only !attr.exclude_kernel calls perf_allow_kernel(); perf_event_open(2) exclude_hv",
	.covers = "attr.exclude_hv sysctl.perf_event_paranoid",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int fd;

	attr.exclude_hv = 0;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_SELF));
	if (fd >= 0)
		close(fd);
}
