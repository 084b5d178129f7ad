#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a breakpoint on a kernel address needs CAP_SYS_ADMIN (EPERM; CAP_PERFMON is not enough), after the kernel-measurement rule (EACCES at paranoid >= 2)",
	.ref = "kernel/events/hw_breakpoint.c hw_breakpoint_parse(): arch_check_bp_in_kernelspace && !capable(CAP_SYS_ADMIN) -> -EPERM",
	.covers = "type.BREAKPOINT attr.bp_addr cap.CAP_SYS_ADMIN errno.EPERM",
	.pmu = "breakpoint",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_bp_attr(HW_BREAKPOINT_W, NULL, HW_BREAKPOINT_LEN_4);
	int fd;

	attr.bp_addr = pa_kernel_text_addr();
	attr.exclude_kernel = 0;
	fd = pa_kernel_bp_open(&attr, pa_expected_errno(PA_NEED_KERNEL_BREAKPOINT));
	if (fd >= 0)
		close(fd);
}
