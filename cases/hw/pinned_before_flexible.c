#include "perfabi.h"

/*
 * Pinned groups are scheduled before flexible ones (perf_event_sched_in():
 * ctx_sched_in() of EVENT_PINNED, then of EVENT_FLEXIBLE, and ctx_resched()
 * takes the flexible ones off whenever a pinned one is enabled), whatever
 * the mux timer's rotations (perf_rotate_context() takes off and puts back
 * only flexible groups). N pinned cycles events (PERFABI_PMU_COUNTERS) and
 * a flexible one, enabled together in that order: the pinned take every
 * counter, and the flexible one, retried at every rotation over a run of
 * 2 (N + 1) mux intervals (1 instruction = 1 ns under QEMU -icount
 * shift=0), never gets one. (Enabled first, it would hold a counter in
 * the kernel until the pinned ones are enabled.) It is read while all are
 * still enabled (a counter coming free as the pinned ones are disabled one
 * by one may let a rotation put it on for a moment in the kernel): time_
 * running 0 and count 0, exactly; each pinned event ran whole and counted
 * exactly what one event alone counts over the same run (with the same
 * read).
 */

PERFABI_CASE(
	.assertion = "pinned hardware events get the counters before flexible ones: with N pinned cycles events on a PMU with N counters, a flexible one never goes on however often the mux timer retries it (time_running 0 and count 0 while all are enabled), and each pinned one runs whole and counts exactly",
	.ref = "perf_event_open(2), pinned: \"the counter should always be on the CPU if at all possible\"; kernel/events/core.c perf_event_sched_in(), ctx_resched(), perf_rotate_context()",
	.covers = "attr.pinned hw.CPU_CYCLES read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val v, peek;
	uint64_t truth, k;
	char path[256];
	int flex, ms, fd[64] = { 0 };

	pa_need_exact_pmu();
	ms = pa_sched_mux_interval_ms(path, sizeof(path));
	k = 2ULL * (n + 1) * ms * 1000000ULL / 3;
	truth = pa_sched_truth(k, true);
	for (int i = 0; i < n; i++)
		fd[i] = pa_sched_open(PA_SCHED_PINNED, -1);
	flex = pa_sched_open(0, -1);
	ASSERT_EQ(pa_sched_run(k, flex, &peek), sizeof(peek));
	pa_diag("flexible, while enabled: %llu, enabled %llu, running %llu",
		(unsigned long long)peek.value, (unsigned long long)peek.enabled,
		(unsigned long long)peek.running);
	EXPECT_GT(peek.enabled, 0);
	EXPECT_EQ(peek.running, 0);
	EXPECT_EQ(peek.value, 0);
	for (int i = 0; i < n; i++) {
		ASSERT_EQ(pa_sched_read(fd[i], &v), sizeof(v));
		pa_diag("pinned %d: %llu, enabled %llu, running %llu", i,
			(unsigned long long)v.value, (unsigned long long)v.enabled,
			(unsigned long long)v.running);
		EXPECT_EQ(v.running, v.enabled);
		EXPECT_EQ(v.value, truth);
	}
	close(flex);
	for (int i = 0; i < n; i++)
		close(fd[i]);
}
