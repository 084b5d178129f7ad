#include "perfabi.h"

PERFABI_CASE(
	.assertion = "kprobe PMU: an unreadable kprobe_func pointer fails with EFAULT (after the CAP_PERFMON check)",
	.ref = "kernel/trace/trace_event_perf.c perf_kprobe_init(): strndup_user(kprobe_func, KSYM_NAME_LEN)",
	.covers = "attr.kprobe_func errno.EFAULT",
	.pmu = "kprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(0);
	int want = pa_expected_errno(PA_NEED_KERNEL);

	if (!want)
		want = pa_expected_errno(PA_NEED_KPROBE_PMU);
	attr.type = (uint32_t)pa_pmu_type("kprobe");
	attr.exclude_kernel = 0;
	attr.kprobe_func = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want ? want : EFAULT);
}
