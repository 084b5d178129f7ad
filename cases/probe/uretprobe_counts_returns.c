#include "perfabi.h"

__attribute__((noinline)) int pa_uretprobe_target_fn(int x);
__attribute__((noinline)) int pa_uretprobe_target_fn(int x)
{
	__asm__ volatile("" ::: "memory");
	return x + 1;
}

PERFABI_CASE(
	.assertion = "with the uprobe PMU's retprobe format bit (config:0) set, the event counts exactly the returns of the function",
	.ref = "/sys/bus/event_source/devices/uprobe/format/retprobe \"config:0\"; kernel/events/core.c perf_uprobe_event_init() PERF_PROBE_CONFIG_IS_RETPROBE",
	.covers = "type.dynamic attr.uprobe_path attr.probe_offset attr.config",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	/* the uprobe PMU's permission rule in every cell is
	 * probe/uprobe_pmu_needs_sys_admin's: this runs where root opens
	 * the event and where user is refused (the plain cells) */
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(0);
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_uretprobe_target_fn") : -1;
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	volatile int v = 0;
	int fd;

	if (off < 0)
		pa_skip("cannot find pa_uretprobe_target_fn in %s", exe ? exe : "/proc/self/exe");
	attr.config = 1;	/* format/retprobe: config:0 */
	attr.type = (uint32_t)pa_pmu_type("uprobe");
	attr.uprobe_path = (uint64_t)(uintptr_t)exe;
	attr.probe_offset = (uint64_t)off;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 5; i++)
		v = pa_uretprobe_target_fn(v);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(v, 5);
	EXPECT_EQ(pa_read_one(fd), 5);
	close(fd);
}
