#include "perfabi.h"

#define K 1000000ULL	/* loop iterations */

/*
 * A pinned group that can never fit the PMU: arm's validate_group() does
 * not count a leader opened disabled (validate_event() passes an event
 * that is OFF and not enable_on_exec), so a pinned leader and as many
 * members as the PMU has counters (PERFABI_PMU_COUNTERS) open. Enabled,
 * the group fails group_sched_in() at once, and a pinned group that fails
 * goes into error state (merge_sched_in() sets the leader's): read() of
 * the leader returns 0, end of file, and no member ever had a counter
 * (time_running 0, count 0). Where the PMU driver refuses the group at
 * open (x86 counts the leader whatever its state) the open fails with
 * EINVAL and there is nothing to read.
 */

PERFABI_CASE(
	.assertion = "a pinned hardware group of one more cycles event than the PMU has counters, accepted at open (arm: the disabled leader is not counted), goes into error when enabled: the leader's read() returns 0 and no member counts (time_running 0, count 0); elsewhere the open fails with EINVAL",
	.ref = "perf_event_open(2), pinned: \"the event goes into an 'error' state, where reads return end-of-file\"; drivers/perf/arm_pmu.c validate_event(); kernel/events/core.c merge_sched_in(), __perf_read()",
	.covers = "attr.pinned arg.group_fd hw.CPU_CYCLES read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct perf_event_attr a = pa_sched_attr(PA_SCHED_ENABLED, 0);
	struct pa_sched_val v;
	int fd[65] = { 0 };

	fd[0] = pa_sched_open(PA_SCHED_PINNED, -1);	/* disabled leader */
	for (int i = 1; i < n; i++)
		fd[i] = pa_sched_open(PA_SCHED_ENABLED, fd[0]);
	fd[n] = pa_perf_open(&a, 0, -1, fd[0], PERF_FLAG_FD_CLOEXEC);
#if defined(__aarch64__) || defined(__arm__)
	if (fd[n] < 0) {
		pa_fail("the %d-th cycles event of a group with a disabled leader was refused (%s): arm's validate_group() does not count a disabled leader",
			n + 1, pa_errno_name(errno));
		pa_abort();
	}
#else
	if (fd[n] < 0) {
		EXPECT_EQ(errno, EINVAL);
		for (int i = 0; i < n; i++)
			close(fd[i]);
		return;
	}
#endif
	pa_loop3(1);
	pa_sched_run(K, -1, NULL);
	EXPECT_EQ(pa_sched_read(fd[0], &v), 0);
	for (int i = 1; i <= n; i++) {
		ssize_t got = pa_sched_read(fd[i], &v);

		pa_diag("member %d: read %zd: %llu, enabled %llu, running %llu", i, got,
			(unsigned long long)v.value, (unsigned long long)v.enabled,
			(unsigned long long)v.running);
		EXPECT_EQ(v.running, 0);
		EXPECT_EQ(v.value, 0);
	}
	for (int i = 0; i <= n; i++)
		close(fd[i]);
}
