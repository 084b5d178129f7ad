#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a kprobe on a syscall's entry function, attached to the own task, counts exactly the calls this task makes",
	.ref = "perf_event_open(2), kprobe_func, probe_offset (since Linux 4.17); /sys/bus/event_source/devices/kprobe",
	.covers = "type.dynamic attr.kprobe_func attr.probe_offset",
	.pmu = "kprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_kprobe_attr(pa_syscall_symbol("getppid"), false);

	pa_expect_getppid_count(&attr, pa_kprobe_expected_errno(), 9);
}
