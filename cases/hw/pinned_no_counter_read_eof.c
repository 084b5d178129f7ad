#include "perfabi.h"

#define K 1000000ULL	/* loop iterations */

/*
 * A pinned group must be on whenever its context is: when ctx_pinned_
 * sched_in() cannot put one on (merge_sched_in()), it goes into the error
 * state, and read() of an event in error returns 0, end of file
 * (__perf_read()). N pinned cycles events (PERFABI_PMU_COUNTERS, each its
 * own group, enabled in creation order) take every counter; one more
 * pinned one enabled after them finds none: read() returns 0 bytes, while
 * each of the first N ran whole (time_running == time_enabled) and counted
 * exactly what one event alone counts over the same run.
 */

PERFABI_CASE(
	.assertion = "a pinned hardware event that cannot get a counter (the PMU's N counters held by N earlier pinned events of the task) goes into error state: read() returns 0 (end of file), while the N that hold them run whole and count exactly",
	.ref = "perf_event_open(2), pinned: \"If a pinned event cannot be put onto the CPU (e.g., because there are not enough hardware counters or because of a conflict with some other event), then the event goes into an 'error' state, where reads return end-of-file (i.e., read(2) returns 0)\"; kernel/events/core.c merge_sched_in(), __perf_read()",
	.covers = "attr.pinned hw.CPU_CYCLES read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val v;
	uint64_t truth;
	int fd[65] = { 0 };

	pa_need_exact_pmu();
	truth = pa_sched_truth(K, false);
	for (int i = 0; i <= n; i++)
		fd[i] = pa_sched_open(PA_SCHED_PINNED, -1);
	pa_sched_run(K, -1, NULL);
	for (int i = 0; i < n; i++) {
		ASSERT_EQ(pa_sched_read(fd[i], &v), sizeof(v));
		pa_diag("pinned %d: %llu, enabled %llu, running %llu", i,
			(unsigned long long)v.value, (unsigned long long)v.enabled,
			(unsigned long long)v.running);
		EXPECT_GT(v.enabled, 0);
		EXPECT_EQ(v.running, v.enabled);
		EXPECT_EQ(v.value, truth);
	}
	EXPECT_EQ(pa_sched_read(fd[n], &v), 0);
	for (int i = 0; i <= n; i++)
		close(fd[i]);
}
