#include "perfabi.h"

PERFABI_CASE(
	.assertion = "with the kprobe PMU's retprobe format bit (config:0) set, a kprobe on a syscall's entry function counts exactly its returns in the own task",
	.ref = "/sys/bus/event_source/devices/kprobe/format/retprobe \"config:0\"; kernel/events/core.c perf_kprobe_event_init() PERF_PROBE_CONFIG_IS_RETPROBE",
	.covers = "type.dynamic attr.kprobe_func attr.config",
	.pmu = "kprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_kprobe_attr(pa_syscall_symbol("getppid"), true);

	pa_expect_getppid_count(&attr, pa_kprobe_expected_errno(), 3);
}
