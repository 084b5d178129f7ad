#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a kprobe PMU event (kprobe_func = a syscall entry) counts kernel code, so it needs the kernel rule (paranoid < 2) and then CAP_PERFMON (or CAP_SYS_ADMIN): EACCES otherwise",
	.ref = "kernel/events/core.c perf_kprobe_event_init(): !perfmon_capable() -> -EACCES; perf_event_open(2) kprobe_func (since Linux 4.17)",
	.covers = "type.dynamic attr.kprobe_func cap.CAP_PERFMON errno.EACCES",
	.pmu = "kprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_kprobe_attr(pa_syscall_symbol("getppid"), false);
	int fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_kprobe_expected_errno());

	if (fd >= 0)
		close(fd);
}
