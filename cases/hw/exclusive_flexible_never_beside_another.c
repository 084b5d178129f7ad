#include "perfabi.h"

/*
 * attr.exclusive on a flexible group: it goes on only when no other group
 * of its context is on the PMU (group_can_go_on(): the context's active
 * list must be empty), and once on it keeps every other hardware group
 * off (the PMU's exclusive mark). A plain flexible cycles event opened
 * first goes on and the exclusive one cannot; the mux timer (perf_rotate_
 * context()) then moves the plain one to the end: the exclusive one goes
 * on first and the plain one cannot; and so on, each interval. So at
 * every moment the task runs in user space exactly one of the two counts:
 * their counts add up to exactly one lone event's count over the same run
 * (an exact PMU; user space only), where two events sharing the PMU would
 * add up to twice that. The run lasts 2 (N + 1) mux intervals (1
 * instruction = 1 ns under QEMU -icount shift=0), so each gets its turn:
 * both count.
 */

PERFABI_CASE(
	.assertion = "a flexible exclusive hardware group and another flexible hardware event of the task are never on together: multiplexed over a long run, both count and their counts add up to exactly one lone event's count",
	.ref = "perf_event_open(2), exclusive: \"when this counter's group is on the CPU, it should be the only group using the CPU's counters\"; kernel/events/core.c group_can_go_on(), perf_rotate_context()",
	.covers = "attr.exclusive hw.CPU_CYCLES read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val p, x;
	uint64_t truth, k;
	char path[256];
	int pfd, xfd, ms;

	pa_need_exact_pmu();
	ms = pa_sched_mux_interval_ms(path, sizeof(path));
	k = 2ULL * (n + 1) * ms * 1000000ULL / 3;
	truth = pa_sched_truth(k, false);
	pfd = pa_sched_open(0, -1);
	xfd = pa_sched_open(PA_SCHED_EXCLUSIVE, -1);
	pa_sched_run(k, -1, NULL);
	ASSERT_EQ(pa_sched_read(pfd, &p), sizeof(p));
	ASSERT_EQ(pa_sched_read(xfd, &x), sizeof(x));
	pa_diag("plain: %llu, enabled %llu, running %llu; exclusive: %llu, enabled %llu, running %llu; one alone: %llu",
		(unsigned long long)p.value, (unsigned long long)p.enabled,
		(unsigned long long)p.running, (unsigned long long)x.value,
		(unsigned long long)x.enabled, (unsigned long long)x.running,
		(unsigned long long)truth);
	EXPECT_GT(p.value, 0);
	EXPECT_GT(x.value, 0);
	EXPECT_EQ(p.value + x.value, truth);
	close(xfd);
	close(pfd);
}
