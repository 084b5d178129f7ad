#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_RAW of a syscall tracepoint on a CPU (not a task) loses the any-user exemption: EPERM below paranoid -1 without CAP_PERFMON, checked before the cpu-wide rule",
	.ref = "kernel/trace/trace_event_perf.c perf_trace_event_perm() (event init) runs before find_get_context() -> perf_allow_cpu()",
	.alone = true,
	.covers = "sample.RAW type.TRACEPOINT arg.cpu errno.EPERM errno.EACCES",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_tp_attr(pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
	int want = pa_expected_errno(PA_NEED_RAW_TRACEPOINT);
	int fd;

	if (!want)
		want = pa_expected_errno(PA_NEED_CPU);
	attr.exclude_kernel = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_RAW;
	fd = EXPECT_OPEN_RESULT(&attr, -1, 0, -1, 0, want);
	if (fd >= 0)
		close(fd);
}
