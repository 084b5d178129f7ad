#include "perfabi.h"

/*
 * One cycles event more than the PMU has counters (PERFABI_PMU_COUNTERS),
 * each its own group, all flexible: ctx_flexible_sched_in() puts them on in
 * order until one fails (merge_sched_in(): the rest of the pass is then
 * skipped, can_add_hw 0, and rotation is asked for), and the multiplexing
 * timer (perf_rotate_context(), every perf_event_mux_interval_ms) moves the
 * first active one to the end of the list and schedules them in again. So
 * at every moment the task runs in user space exactly N of the N + 1 are
 * on: the counts of all of them add up to exactly N times what one event
 * alone counts over the same run, on an exact PMU (user space only: the
 * kernel's rotations and the enabling, where fewer may be on, are not
 * counted). For the same reason their times_running add up to no more than
 * N times the longest time_enabled. The run lasts 2 (N + 1) mux intervals
 * (1 instruction = 1 ns under QEMU -icount shift=0), though the sum does
 * not depend on how often the timer rotates.
 */

PERFABI_CASE(
	.assertion = "N + 1 flexible hardware cycles events of a task on a PMU with N counters are multiplexed so that exactly N count at every instant: their counts add up to exactly N times one lone event's count over the same run, and their times_running to at most N times time_enabled",
	.ref = "perf_event_open(2), read_format: \"If time_enabled and time_running differ, the event was multiplexed\"; kernel/events/core.c merge_sched_in(), perf_rotate_context()",
	.covers = "hw.CPU_CYCLES read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING prctl.TASK_PERF_EVENTS_ENABLE prctl.TASK_PERF_EVENTS_DISABLE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val v;
	uint64_t truth, k, sum = 0, sum_running = 0, max_enabled = 0;
	char path[256];
	int fd[65] = { 0 }, ms;

	pa_need_exact_pmu();
	ms = pa_sched_mux_interval_ms(path, sizeof(path));
	k = 2ULL * (n + 1) * ms * 1000000ULL / 3;
	truth = pa_sched_truth(k, false);
	for (int i = 0; i <= n; i++)
		fd[i] = pa_sched_open(0, -1);
	pa_sched_run(k, -1, NULL);
	for (int i = 0; i <= n; i++) {
		ASSERT_EQ(pa_sched_read(fd[i], &v), sizeof(v));
		pa_diag("event %d: %llu, enabled %llu, running %llu", i,
			(unsigned long long)v.value, (unsigned long long)v.enabled,
			(unsigned long long)v.running);
		sum += v.value;
		sum_running += v.running;
		if (v.enabled > max_enabled)
			max_enabled = v.enabled;
	}
	pa_diag("%d events, interval %d ms, %llu iterations: sum %llu, one alone %llu",
		n + 1, ms, (unsigned long long)k, (unsigned long long)sum,
		(unsigned long long)truth);
	EXPECT_EQ(sum, (uint64_t)n * truth);
	EXPECT_LE(sum_running, (uint64_t)n * max_enabled);
	for (int i = 0; i <= n; i++)
		close(fd[i]);
}
