#include "perfabi.h"

#include <time.h>

#define K 1000000ULL	/* loop iterations: 3 ms under QEMU -icount shift=0 */
#define LONG_MS 1000	/* the mux interval set */

/*
 * perf_event_mux_interval_ms (sysfs, per PMU) is the period of the timer
 * that rotates flexible events that did not all fit (perf_mux_hrtimer_
 * handler()). Writing it (perf_event_mux_interval_ms_store()) starts that
 * CPU's timer with the new period unless it is already running; a timer
 * that finds nothing to rotate stops. Set to 1 s, with a run of a few ms
 * no rotation can come: of N + 1 flexible cycles events on a PMU with N
 * counters, the first N (ctx_flexible_sched_in() goes in creation order)
 * have a counter the whole time, time_running == time_enabled and exactly
 * one lone event's count, and the last never goes on: time_running 0 and
 * a count of 0, exactly. The default interval (a tick) rotates them all in
 * (hw/mux_scaled_count_within_kernel_share). A timer already running with
 * the old period is let expire first (twice the old interval, nothing to
 * rotate), and before the case ends the 1 s timer the failed event started
 * is let expire with nothing left to rotate, so that the restored interval
 * applies at once to whatever runs next.
 */

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

PERFABI_CASE(
	.assertion = "with the PMU's perf_event_mux_interval_ms set to 1 s, over a run of a few ms the first N of N + 1 flexible hardware cycles events (N counters) run whole and the last one never goes on: time_running 0 and count 0",
	.ref = "Documentation/ABI/testing/sysfs-bus-event_source-devices: perf_event_mux_interval_ms \"the time interval in milliseconds at which the kernel rotates ... multiplexed events\"; kernel/events/core.c perf_event_mux_interval_ms_store(), perf_mux_hrtimer_restart()",
	.covers = "hw.CPU_CYCLES sysfs.perf_event_mux_interval_ms read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.root = true,
	.alone = true,
	.timeout = 20,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val v;
	uint64_t truth, t0;
	char path[256], val[16];
	int fd[65] = { 0 }, old;

	pa_need_exact_pmu();
	old = pa_sched_mux_interval_ms(path, sizeof(path));
	truth = pa_sched_truth(K, false);
	snprintf(val, sizeof(val), "%d", LONG_MS);
	if (pa_sysctl_write(path, val))
		pa_skip("cannot write %s: %s", path, pa_errno_name(errno));
	pa_sleep_ms(2 * old + 20);	/* a timer running with the old period expires */
	for (int i = 0; i <= n; i++)
		fd[i] = pa_sched_open(0, -1);
	t0 = mono_ms();
	pa_sched_run(K, -1, NULL);
	for (int i = 0; i <= n; i++) {
		ASSERT_EQ(pa_sched_read(fd[i], &v), sizeof(v));
		pa_diag("event %d: %llu, enabled %llu, running %llu", i,
			(unsigned long long)v.value, (unsigned long long)v.enabled,
			(unsigned long long)v.running);
		EXPECT_GT(v.enabled, 0);
		if (i < n) {
			EXPECT_EQ(v.running, v.enabled);
			EXPECT_EQ(v.value, truth);
		} else {
			EXPECT_EQ(v.running, 0);
			EXPECT_EQ(v.value, 0);
		}
	}
	for (int i = 0; i <= n; i++)
		close(fd[i]);
	/* the 1 s timer expires with nothing to rotate and stops */
	while (mono_ms() < t0 + LONG_MS + 100)
		pa_sleep_ms(50);
}
