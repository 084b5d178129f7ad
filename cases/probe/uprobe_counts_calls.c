#include "perfabi.h"

__attribute__((noinline)) void pa_uprobe_target_fn(void);
__attribute__((noinline)) void pa_uprobe_target_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

PERFABI_CASE(
	.assertion = "a uprobe event (uprobe_path = the binary, probe_offset = a function's file offset) on the own task counts exactly the calls of that function",
	.ref = "perf_event_open(2), uprobe_path / probe_offset (since Linux 4.17); /sys/bus/event_source/devices/uprobe",
	.alone = true,
	.covers = "type.dynamic attr.uprobe_path attr.probe_offset attr.config1 attr.config2",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	/* the uprobe PMU's permission rule in every cell is
	 * probe/uprobe_pmu_needs_sys_admin's: this runs where root opens
	 * the event and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(0);
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_uprobe_target_fn") : -1;
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	int fd;

	if (off < 0)
		pa_skip("cannot find pa_uprobe_target_fn in %s", exe ? exe : "/proc/self/exe");
	attr.type = (uint32_t)pa_pmu_type("uprobe");
	attr.config1 = (uint64_t)(uintptr_t)exe;
	attr.config2 = (uint64_t)off;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	pa_uprobe_target_fn();	/* disabled: not counted */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 7; i++)
		pa_uprobe_target_fn();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_uprobe_target_fn();
	EXPECT_EQ(pa_read_one(fd), 7);
	close(fd);
}
