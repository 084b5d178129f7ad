#include "perfabi.h"

PERFABI_CASE(
	.assertion = "uprobe PMU: uprobe_path 0 (no path) fails with EINVAL (after the CAP_SYS_ADMIN check)",
	.ref = "kernel/trace/trace_event_perf.c perf_uprobe_init() / kernel/trace/trace_uprobe.c: perf_uprobe_init(): !attr.uprobe_path -> -EINVAL",
	.covers = "attr.uprobe_path errno.EINVAL",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_uprobe_attr(0, 0);

	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, pa_expected_errno_or(PA_NEED_UPROBE_PMU, EINVAL));
}
