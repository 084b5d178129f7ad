#include "perfabi.h"

PERFABI_CASE(
	.assertion = "uprobe PMU: a uprobe_path string of PATH_MAX bytes or more fails with E2BIG (after the CAP_SYS_ADMIN check)",
	.ref = "kernel/trace/trace_event_perf.c perf_uprobe_init(): strndup_user(path, PATH_MAX) -EINVAL is returned as -E2BIG",
	.covers = "attr.uprobe_path errno.E2BIG",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	static char path[4096 + 64];
	struct perf_event_attr attr = pa_uprobe_attr((uint64_t)(uintptr_t)path, 0);

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, pa_expected_errno_or(PA_NEED_UPROBE_PMU, E2BIG));
}
