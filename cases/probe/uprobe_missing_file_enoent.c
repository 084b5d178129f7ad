#include "perfabi.h"

PERFABI_CASE(
	.assertion = "uprobe PMU: a uprobe_path naming no file fails with ENOENT (after the CAP_SYS_ADMIN check)",
	.ref = "kernel/trace/trace_event_perf.c perf_uprobe_init() / kernel/trace/trace_uprobe.c: create_local_trace_uprobe(): kern_path()",
	.covers = "attr.uprobe_path errno.ENOENT",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_uprobe_attr((uint64_t)(uintptr_t)"/nonexistent/perfabi-no-such-file", 0);

	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, pa_expected_errno_or(PA_NEED_UPROBE_PMU, ENOENT));
}
