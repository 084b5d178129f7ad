#include "perfabi.h"

/*
 * A group is multiplexed as a unit. A group of as many cycles events as
 * the PMU has counters (PERFABI_PMU_COUNTERS) and one more flexible cycles
 * event cannot be on together: whichever is first in the flexible list
 * goes on and the other does not fit (group_sched_in() puts all of a
 * group on or none; merge_sched_in() then stops the pass), and the mux
 * timer (perf_rotate_context()) moves the first active one to the end
 * each interval, so they take turns. Every member of the group is on
 * exactly when its leader is: on an exact PMU all members count the same,
 * exactly, and at every moment the task runs in user space exactly one of
 * the group and the single event counts, so a member's count and the
 * single event's add up to exactly one lone event's count over the same
 * run. The run lasts 2 (N + 1) mux intervals (1 instruction = 1 ns under
 * QEMU -icount shift=0): both take turns and both count.
 */

PERFABI_CASE(
	.assertion = "a hardware group that fills the PMU's counters and one more flexible hardware event take turns whole: every member of the group counts exactly the same, and a member's count plus the single event's is exactly one lone event's count over the run",
	.ref = "perf_event_open(2), group_fd: \"the group is scheduled onto the CPU as a unit\"; kernel/events/core.c group_sched_in(), merge_sched_in(), perf_rotate_context()",
	.covers = "hw.CPU_CYCLES arg.group_fd read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val v, g, s;
	uint64_t truth, k;
	char path[256];
	int fd[64] = { 0 }, single, ms;

	pa_need_exact_pmu();
	ms = pa_sched_mux_interval_ms(path, sizeof(path));
	k = 2ULL * (n + 1) * ms * 1000000ULL / 3;
	truth = pa_sched_truth(k, false);
	fd[0] = pa_sched_open(0, -1);
	for (int i = 1; i < n; i++)
		fd[i] = pa_sched_open(PA_SCHED_ENABLED, fd[0]);
	single = pa_sched_open(0, -1);
	pa_sched_run(k, -1, NULL);
	ASSERT_EQ(pa_sched_read(fd[0], &g), sizeof(g));
	ASSERT_EQ(pa_sched_read(single, &s), sizeof(s));
	pa_diag("group leader: %llu, enabled %llu, running %llu; single: %llu, enabled %llu, running %llu; one alone: %llu",
		(unsigned long long)g.value, (unsigned long long)g.enabled,
		(unsigned long long)g.running, (unsigned long long)s.value,
		(unsigned long long)s.enabled, (unsigned long long)s.running,
		(unsigned long long)truth);
	EXPECT_GT(g.value, 0);
	EXPECT_GT(s.value, 0);
	EXPECT_EQ(g.value + s.value, truth);
	for (int i = 1; i < n; i++) {
		ASSERT_EQ(pa_sched_read(fd[i], &v), sizeof(v));
		EXPECT_EQ(v.value, g.value);
		EXPECT_EQ(v.running, g.running);
	}
	close(single);
	for (int i = 0; i < n; i++)
		close(fd[i]);
}
