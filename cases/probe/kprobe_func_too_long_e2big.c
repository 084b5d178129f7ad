#include "perfabi.h"

PERFABI_CASE(
	.assertion = "kprobe PMU: a kprobe_func name of KSYM_NAME_LEN (512 since 6.1) bytes or more fails with E2BIG (after the CAP_PERFMON check)",
	.ref = "kernel/trace/trace_event_perf.c perf_kprobe_init(): strndup_user() -EINVAL is returned as -E2BIG",
	.covers = "attr.kprobe_func errno.E2BIG",
	.pmu = "kprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	static char name[8192];
	struct perf_event_attr attr = pa_sw_attr(0);
	int want = pa_expected_errno(PA_NEED_KERNEL);

	if (!want)
		want = pa_expected_errno(PA_NEED_KPROBE_PMU);
	memset(name, 'a', sizeof(name) - 1);
	attr.type = (uint32_t)pa_pmu_type("kprobe");
	attr.exclude_kernel = 0;
	attr.kprobe_func = (uint64_t)(uintptr_t)name;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want ? want : E2BIG);
}
