#include "perfabi.h"

PERFABI_CASE(
	.assertion = "a migration happens in the kernel: PERF_COUNT_SW_CPU_MIGRATIONS "
		     "with exclude_kernel set counts none, however often the task "
		     "moves between CPUs",
	.ref = "perf_event_open(2), exclude_kernel; include/linux/perf_event.h "
	       "perf_event_task_sched_in() -> __perf_sw_event_sched() records with "
	       "perf_fetch_caller_regs() (kernel mode); kernel/events/core.c "
	       "perf_exclude_event()",
	.alone = true,
	.covers = "sw.CPU_MIGRATIONS attr.exclude_kernel",
	.min_cpus = 2,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CPU_MIGRATIONS);
	int cpus[2], fd;
	uint64_t n;

	if (pa_allowed_cpus(cpus, 2) < 2)
		pa_skip("this task may run on fewer than 2 CPUs");
	ASSERT_OK(pa_pin_cpu(cpus[0]));
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 1; i <= 10; i++) {
		ASSERT_OK(pa_pin_cpu(cpus[i % 2]));
		pa_busy_loop(1000);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, &n, 1);
	EXPECT_EQ(n, 0);
}
