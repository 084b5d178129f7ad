#include "perfabi.h"
#include <sys/stat.h>

PERFABI_CASE(
	.assertion = "uprobe PMU: a probe_offset beyond the end of the file fails with EINVAL (after the CAP_SYS_ADMIN check)",
	.ref = "kernel/events/uprobes.c uprobe_register(): offset > i_size_read(inode) -> -EINVAL",
	.covers = "attr.probe_offset errno.EINVAL",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr;
	const char *exe = pa_self_exe();
	struct stat st;

	ASSERT_TRUE(exe != NULL);
	ASSERT_OK(stat(exe, &st));
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)st.st_size + 4096);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, pa_expected_errno_or(PA_NEED_UPROBE_PMU, EINVAL));
}
