#include "perfabi.h"

/*
 * When a CPU goes offline, perf_event_exit_cpu() (the CPUHP_AP_PERF_ONLINE
 * teardown) runs __perf_event_exit_context() on it: every event of its CPU
 * context is removed with DETACH_GROUP, which disables it (state OFF) after
 * one last update of its count and times. An OFF event accrues neither
 * time_enabled nor time_running, and nothing re-adds it when the CPU comes
 * back (perf_event_init_cpu() only marks the context online again). So a
 * CPU-wide software event on that CPU reads the same three values from the
 * offline onwards. Software events have no PMU scope: they are not migrated
 * to another CPU the way perf_event_clear_cpumask() moves scoped PMUs' ones.
 * The same holds in 6.1 (list_del_event() then set the state OFF).
 */

PERFABI_CASE(
	.assertion = "a CPU-wide software event on a CPU that goes offline is removed from "
		     "that CPU and disabled: its value, time_enabled and time_running stop "
		     "at the offline and stay unchanged while the CPU is offline and after "
		     "it is back online",
	.ref = "kernel/events/core.c perf_event_exit_cpu() -> perf_event_exit_cpu_context() "
	       "-> __perf_event_exit_context(): __perf_remove_from_context(DETACH_GROUP) "
	       "sets PERF_EVENT_STATE_OFF; perf_event_init_cpu() does not re-add it",
	.alone = true,
	.covers = "arg.cpu read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.root = true,
	.min_cpus = 2,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	uint64_t a[3], b[3], off[3], later[3], back[3];
	int cpu = pa_hotplug_cpu(), fd;

	attr.disabled = 0;
	attr.exclude_kernel = 0;
	attr.exclude_hv = 0;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = ASSERT_OPEN(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

	/* control: while the CPU is online the clock and both times advance */
	pa_read_u64(fd, a, 3);
	pa_sleep_ms(50);	/* a jiffies sched_clock ticks by 4-10 ms */
	pa_read_u64(fd, b, 3);
	EXPECT_GT(b[0], a[0]);
	EXPECT_GT(b[1], a[1]);
	EXPECT_GT(b[2], a[2]);

	pa_cpu_offline(cpu);
	/* the offline window stays short: other tests may share this machine */
	pa_read_u64(fd, off, 3);
	pa_sleep_ms(20);
	pa_read_u64(fd, later, 3);
	pa_cpu_online(cpu);
	pa_sleep_ms(20);
	pa_read_u64(fd, back, 3);

	pa_diag("at offline: value %llu enabled %llu running %llu",
		(unsigned long long)off[0], (unsigned long long)off[1],
		(unsigned long long)off[2]);
	/* the last update happened at the offline, after the control reads */
	EXPECT_GE(off[0], b[0]);
	EXPECT_GE(off[1], b[1]);
	EXPECT_GE(off[2], b[2]);
	/* 20 ms offline: nothing moves (OFF, not INACTIVE: time_enabled too) */
	EXPECT_EQ(later[0], off[0]);
	EXPECT_EQ(later[1], off[1]);
	EXPECT_EQ(later[2], off[2]);
	/* 20 ms online again: still nothing, the event is not re-added */
	EXPECT_EQ(back[0], off[0]);
	EXPECT_EQ(back[1], off[1]);
	EXPECT_EQ(back[2], off[2]);
	close(fd);
}
