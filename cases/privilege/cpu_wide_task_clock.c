#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a cpu-wide event (pid == -1, cpu >= 0) needs perf_event_paranoid < 1 or CAP_PERFMON (CAP_SYS_ADMIN), else EACCES",
	.ref = "perf_event_open(2), perf_event_paranoid: \"1 Allow both kernel and user measurements (default before Linux 4.6)\" / \"2 ... user-space measurement only\"; kernel/events/core.c perf_allow_cpu()",
	.alone = true,
	.covers = "arg.pid arg.cpu sysctl.perf_event_paranoid cap.CAP_PERFMON cap.CAP_SYS_ADMIN errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	int cpu, fd;

	ASSERT_EQ(pa_allowed_cpus(&cpu, 1), 1);
	fd = EXPECT_OPEN_RESULT(&attr, -1, cpu, -1, 0, pa_expected_errno(PA_NEED_CPU));

	if (fd >= 0)
		close(fd);
}
