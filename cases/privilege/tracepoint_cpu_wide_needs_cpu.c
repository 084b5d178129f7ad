#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a cpu-wide user-only tracepoint counter (no RAW) falls under the cpu rule: paranoid < 1 or CAP_PERFMON, else EACCES",
	.ref = "perf_event_open(2), perf_event_paranoid \"1 ... Disallow CPU event access\"; kernel/events/core.c perf_allow_cpu()",
	.alone = true,
	.covers = "type.TRACEPOINT arg.cpu errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("sched", "sched_switch"));
	int fd;

	attr.exclude_kernel = 1;
	fd = EXPECT_OPEN_RESULT(&attr, -1, 0, -1, 0, pa_expected_errno(PA_NEED_CPU));
	if (fd >= 0)
		close(fd);
}
