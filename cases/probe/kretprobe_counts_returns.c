#include "perfabi.h"
#include <sys/syscall.h>

PERFABI_CASE(
	.assertion = "with the kprobe PMU's retprobe format bit (config:0) set, a kprobe on a syscall's entry function counts exactly its returns in the own task",
	.ref = "/sys/bus/event_source/devices/kprobe/format/retprobe \"config:0\"; kernel/events/core.c perf_kprobe_event_init() PERF_PROBE_CONFIG_IS_RETPROBE",
	.covers = "type.dynamic attr.kprobe_func attr.config",
	.pmu = "kprobe",
	.min_kernel = "4.17",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(0);
	int want = pa_expected_errno(PA_NEED_KERNEL);
	int fd;

	if (!want)
		want = pa_expected_errno(PA_NEED_KPROBE_PMU);
	attr.type = (uint32_t)pa_pmu_type("kprobe");
	attr.config = 1;	/* format/retprobe: config:0 */
	attr.exclude_kernel = 0;
	attr.kprobe_func = (uint64_t)(uintptr_t)pa_syscall_symbol("getppid");
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 3; i++)
		syscall(SYS_getppid);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 3);
	close(fd);
}
