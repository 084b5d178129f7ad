#include "perfabi.h"

#include <sys/ioctl.h>

__attribute__((noinline)) void pa_uprobe_pid_target_fn(void);
__attribute__((noinline)) void pa_uprobe_pid_target_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static void call_n(int n)
{
	for (int i = 0; i < n; i++)
		pa_uprobe_pid_target_fn();
}

PERFABI_CASE(
	.assertion = "a uprobe PMU event opened with pid = another process (running the probed binary since before the open) counts exactly that process's calls of the function, not the calls of the opener or of a third process running the same binary",
	.ref = "perf_event_open(2), pid > 0 \"measures the specified process/thread\"; uprobe_path / probe_offset (since Linux 4.17); kernel/trace/trace_uprobe.c uprobe_perf_filter()",
	.covers = "type.dynamic arg.pid attr.uprobe_path attr.probe_offset",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	/* the uprobe PMU's permission rule in every cell is
	 * probe/uprobe_pmu_needs_sys_admin's: this runs where root opens
	 * the event and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
) {
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_uprobe_pid_target_fn") : -1;
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct pa_puppet target, other;
	struct perf_event_attr attr;
	int fd;

	if (off < 0)
		pa_skip("cannot find pa_uprobe_pid_target_fn in %s", exe ? exe : "/proc/self/exe");
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	pa_puppet_start(&target);
	pa_puppet_start(&other);
	fd = EXPECT_OPEN_RESULT(&attr, target.pid, -1, -1, 0, want);
	if (fd < 0) {
		pa_puppet_stop(&other);	/* first: it holds target's pipes */
		pa_puppet_stop(&target);
		return;
	}
	pa_puppet_run(&target, call_n, 2);	/* disabled: not counted */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	call_n(4);				/* the opener */
	pa_puppet_run(&other, call_n, 6);	/* a third process */
	pa_puppet_run(&target, call_n, 9);
	call_n(3);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 9);
	close(fd);
	pa_puppet_stop(&other);
	pa_puppet_stop(&target);
}
