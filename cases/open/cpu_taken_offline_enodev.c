#include "perfabi.h"

/*
 * perf_event_exit_cpu() (the teardown of the CPU's perf hotplug states)
 * clears cpuctx->online under the CPU context's mutex; perf_event_open()
 * checks it under the same mutex and refuses a CPU-wide event with ENODEV.
 * perf_event_init_cpu() sets it again when the CPU comes back. Both run
 * before the write to cpuN/online returns. cpu_offline_enodev checks a CPU
 * that was never online; this one takes an online CPU offline.
 */

PERFABI_CASE(
	.assertion = "a CPU-wide event on a CPU that was online and has been taken offline "
		     "fails with ENODEV; once the CPU is back online the same open succeeds",
	.ref = "kernel/events/core.c perf_event_open(): !cpuctx->online -> -ENODEV; "
	       "perf_event_exit_cpu_context() clears it, perf_event_init_cpu() sets it",
	.alone = true,
	.covers = "arg.cpu errno.ENODEV",
	.root = true,
	.min_cpus = 2,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	int cpu = pa_hotplug_cpu(), fd;


	/* control: the open succeeds while the CPU is online */
	fd = ASSERT_OPEN(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	close(fd);

	pa_cpu_offline(cpu);
	/* one open, then straight back online: other tests may share the machine */
	EXPECT_OPEN_FAIL(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC, ENODEV);
	pa_cpu_online(cpu);

	fd = EXPECT_OPEN(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		close(fd);
}
