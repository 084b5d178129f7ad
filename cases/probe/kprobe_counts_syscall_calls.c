#include "perfabi.h"
#include <sys/syscall.h>

PERFABI_CASE(
	.assertion = "a kprobe on a syscall's entry function, attached to the own task, counts exactly the calls this task makes",
	.ref = "perf_event_open(2), kprobe_func, probe_offset (since Linux 4.17); /sys/bus/event_source/devices/kprobe",
	.covers = "type.dynamic attr.kprobe_func attr.probe_offset",
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
	attr.exclude_kernel = 0;
	attr.kprobe_func = (uint64_t)(uintptr_t)pa_syscall_symbol("getppid");
	attr.probe_offset = 0;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 9; i++)
		syscall(SYS_getppid);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 9);
	close(fd);
}
