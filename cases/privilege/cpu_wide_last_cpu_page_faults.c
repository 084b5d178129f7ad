#include "perfabi.h"

PERFABI_CASE(
	.assertion = "the cpu-wide rule does not depend on the CPU or the event: page-faults on the last CPU this task may use needs paranoid < 1 or CAP_PERFMON",
	.ref = "perf_event_open(2), perf_event_paranoid; kernel/events/core.c find_get_context() -> perf_allow_cpu()",
	.alone = true,
	.covers = "arg.cpu sysctl.perf_event_paranoid cap.CAP_PERFMON errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	static int cpus[4096];
	int n = pa_allowed_cpus(cpus, 4096), fd;

	ASSERT_GE(n, 1);
	fd = EXPECT_OPEN_RESULT(&attr, -1, cpus[n - 1], -1, 0, pa_expected_errno(PA_NEED_CPU));

	if (fd >= 0)
		close(fd);
}
