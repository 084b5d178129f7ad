#include "perfabi.h"

/*
 * Multiplexed, each of N + 1 flexible cycles events on a PMU with N
 * counters (PERFABI_PMU_COUNTERS) is on part of the time: with a run of
 * 2 (N + 1) mux intervals (perf_rotate_context() moves the first active
 * event to the end each interval, so after N rotations each has been off
 * and on), 0 < time_running < time_enabled. The estimate the man page
 * gives, count * time_enabled / time_running, is then the true count (one
 * event alone over the same run, T) within a bound that follows from the
 * exact PMU's clock: under QEMU -icount shift=0 every instruction, user or
 * kernel, takes exactly 1 ns of the clock the times are kept in, so no
 * nanosecond holds more than one user instruction. With r = count /
 * running and s = (T - count) / (enabled - running) the user instructions
 * per ns on and off the counter (both in [0, 1]), estimate - T =
 * (r - s)(enabled - running), and enabled - T = running (1 - r) +
 * (enabled - running)(1 - s); so |estimate - T| <= (enabled - T) times
 * max(1, (enabled - running) / running): the estimate is off by no more
 * than the nanoseconds the run spent outside the user loop (the kernel's
 * ticks and rotations, well under a percent), where an unscaled count, or
 * one scaled wrongly, would be off by about 1/(N + 1).
 */

PERFABI_CASE(
	.assertion = "each of N + 1 multiplexed hardware cycles events on a PMU with N counters has 0 < time_running < time_enabled, and its scaled count (count * time_enabled / time_running) is within (time_enabled - T) * max(1, (time_enabled - time_running) / time_running) of the true count T, on a PMU where every instruction takes one nanosecond",
	.ref = "perf_event_open(2), read_format: \"If time_enabled and time_running differ, the event was multiplexed ... scale the count by time_enabled/time_running\"; kernel/events/core.c perf_rotate_context()",
	.covers = "hw.CPU_CYCLES read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val v;
	uint64_t truth, k;
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
		uint64_t est, off, bound;

		ASSERT_EQ(pa_sched_read(fd[i], &v), sizeof(v));
		EXPECT_GT(v.running, 0);
		EXPECT_LT(v.running, v.enabled);
		EXPECT_GE(v.enabled, truth);
		if (!v.running || v.enabled < truth)
			continue;
		est = (uint64_t)((unsigned __int128)v.value * v.enabled / v.running);
		off = est > truth ? est - truth : truth - est;
		bound = v.enabled - truth + 1;	/* + 1: the division rounds down */
		if (v.enabled - v.running > v.running)
			bound = (uint64_t)((unsigned __int128)bound * (v.enabled - v.running) /
					   v.running) + 1;
		pa_diag("event %d: %llu, enabled %llu, running %llu: estimate %llu, off by %llu of %llu (bound %llu)",
			i, (unsigned long long)v.value, (unsigned long long)v.enabled,
			(unsigned long long)v.running, (unsigned long long)est,
			(unsigned long long)off, (unsigned long long)truth,
			(unsigned long long)bound);
		EXPECT_LE(off, bound);
	}
	for (int i = 0; i <= n; i++)
		close(fd[i]);
}
