#include "perfabi.h"

#define K 1000000ULL	/* loop iterations */

/*
 * attr.exclusive: "when this group is on the CPU, it should be the only
 * group using the CPU's counters". An exclusive group that goes on sets
 * the PMU's exclusive mark for that CPU (event_sched_in()), and while it
 * is set group_can_go_on() lets no other hardware group on. A pinned
 * exclusive cycles event is scheduled first and stays on: a flexible
 * cycles event of the same task, though a counter is free for it and the
 * mux timer keeps retrying it, never goes on. It is read while both are
 * still enabled (disabling the exclusive one first lets a rotation put it
 * on for a moment in the kernel): time_running 0 and count 0, exactly;
 * the exclusive one ran whole and counted exactly what one event alone
 * counts over the same run (with the same read). No privilege is needed
 * for attr.exclusive on a CPU PMU (the PMU capability PERF_PMU_CAP_
 * EXCLUSIVE is another thing: one event per PMU, for AUX PMUs).
 */

PERFABI_CASE(
	.assertion = "a pinned exclusive hardware event keeps every other hardware group of the CPU off: a flexible cycles event of the same task never goes on (time_running 0 and count 0 while both are enabled), though a counter is free, and the exclusive one runs whole and counts exactly",
	.ref = "perf_event_open(2), exclusive: \"when this counter's group is on the CPU, it should be the only group using the CPU's counters\"; kernel/events/core.c group_can_go_on(), event_sched_in()",
	.covers = "attr.exclusive attr.pinned hw.CPU_CYCLES read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	struct pa_sched_val v, peek;
	uint64_t truth;
	int x, flex;

	pa_need_pmu_counters();
	pa_need_exact_pmu();
	truth = pa_sched_truth(K, true);
	x = pa_sched_open(PA_SCHED_PINNED | PA_SCHED_EXCLUSIVE, -1);
	flex = pa_sched_open(0, -1);
	ASSERT_EQ(pa_sched_run(K, flex, &peek), sizeof(peek));
	pa_diag("flexible, while enabled: %llu, enabled %llu, running %llu",
		(unsigned long long)peek.value, (unsigned long long)peek.enabled,
		(unsigned long long)peek.running);
	EXPECT_GT(peek.enabled, 0);
	EXPECT_EQ(peek.running, 0);
	EXPECT_EQ(peek.value, 0);
	ASSERT_EQ(pa_sched_read(x, &v), sizeof(v));
	pa_diag("exclusive: %llu, enabled %llu, running %llu", (unsigned long long)v.value,
		(unsigned long long)v.enabled, (unsigned long long)v.running);
	EXPECT_EQ(v.running, v.enabled);
	EXPECT_EQ(v.value, truth);
	close(flex);
	close(x);
}
