#include "perfabi.h"

PERFABI_CASE(
	.assertion = "opening the uprobe PMU needs CAP_SYS_ADMIN (since ba677dbe77af: 6.16, 6.15.7, 6.12.39, 6.6.99, 6.1.146; CAP_PERFMON was enough before), else EACCES",
	.ref = "kernel/events/core.c perf_uprobe_event_init(); ba677dbe77af \"perf: Revert to requiring CAP_SYS_ADMIN for uprobes\"",
	.fix = { .commit = "ba677dbe77af", .subject = "perf: Revert to requiring CAP_SYS_ADMIN for uprobes", .release = "6.16", .cve = "CVE-2025-38466" },
	.covers = "type.dynamic attr.uprobe_path attr.probe_offset cap.CAP_SYS_ADMIN cap.CAP_PERFMON errno.EACCES",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(0);
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "main") : -1;
	int fd;

	if (off < 0)
		pa_skip("cannot find main() in %s", exe ? exe : "/proc/self/exe");
	attr.type = (uint32_t)pa_pmu_type("uprobe");
	attr.uprobe_path = (uint64_t)(uintptr_t)exe;
	attr.probe_offset = (uint64_t)off;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, pa_expected_errno(PA_NEED_UPROBE_PMU));
	if (fd >= 0)
		close(fd);
}
