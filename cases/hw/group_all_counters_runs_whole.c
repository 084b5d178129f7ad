#include "perfabi.h"

#define K 1000000ULL	/* loop iterations */

/*
 * A group goes on the PMU all or nothing (group_sched_in()): a group of
 * exactly as many cycles events as the PMU has counters (the kernel's
 * boot line, PERFABI_PMU_COUNTERS; cycles because only they can use every
 * counter, arm64's cycle counter included) fits whole, and with no other
 * event of the CPU holding a counter it is on for as long as it is
 * enabled. Its members are enabled, and counting, with the leader, so on
 * an exact PMU each counts exactly what one cycles event alone counts over
 * the same user-space run (user space only: the kernel's own work between
 * the members' starts is not counted). time_running == time_enabled holds
 * exactly: the only reschedules in the run (enabling) happen with the
 * context's time stopped.
 */

PERFABI_CASE(
	.assertion = "a group of exactly as many hardware cycles events as the PMU has counters goes on whole: each member's time_running equals its time_enabled, and each counts exactly what one cycles event alone counts over the same run",
	.ref = "perf_event_open(2), group_fd: \"the group is scheduled onto the CPU as a unit: it is put onto the CPU only if all of the events in the group can be put onto the CPU\"; kernel/events/core.c group_sched_in()",
	.covers = "hw.CPU_CYCLES arg.group_fd read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING prctl.TASK_PERF_EVENTS_ENABLE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val v;
	uint64_t truth;
	int fd[64] = { 0 };

	pa_need_exact_pmu();
	truth = pa_sched_truth(K, false);
	fd[0] = pa_sched_open(0, -1);
	for (int i = 1; i < n; i++)
		fd[i] = pa_sched_open(PA_SCHED_ENABLED, fd[0]);
	pa_sched_run(K, -1, NULL);
	for (int i = 0; i < n; i++) {
		ASSERT_EQ(pa_sched_read(fd[i], &v), sizeof(v));
		pa_diag("member %d: %llu, enabled %llu, running %llu", i,
			(unsigned long long)v.value, (unsigned long long)v.enabled,
			(unsigned long long)v.running);
		EXPECT_GT(v.enabled, 0);
		EXPECT_EQ(v.running, v.enabled);
		EXPECT_EQ(v.value, truth);
	}
	for (int i = 0; i < n; i++)
		close(fd[i]);
}
