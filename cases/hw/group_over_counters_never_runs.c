#include "perfabi.h"

#include <errno.h>

#define K 1000000ULL	/* loop iterations */

/*
 * A group of one cycles event more than the PMU has counters can never go
 * on. Where it is refused at open is the PMU driver's choice: arm's
 * validate_group() (drivers/perf/arm_pmu.c) asks a counter of the leader
 * and each member only when it is not off (validate_event() passes an
 * event in state OFF that is not enable_on_exec), so a group whose leader
 * was opened disabled validates its members against all the counters and
 * one more event than counters opens; x86's collect_events() counts the
 * leader whatever its state and refuses it (EINVAL). Once enabled, such
 * a group fails group_sched_in() at every attempt (enable, each rotation
 * of the multiplexing timer): no member ever gets a counter, so each reads
 * time_running 0 and a count of 0, exactly, with time_enabled > 0.
 */

PERFABI_CASE(
	.assertion = "a group of one more hardware cycles event than the PMU has counters never goes on: where the open accepts it (arm: validate_group() does not count a disabled leader) every member reads time_running 0 and count 0 after an enabled run; elsewhere the open fails with EINVAL",
	.ref = "perf_event_open(2), group_fd: \"put onto the CPU only if all of the events in the group can be put onto the CPU\"; drivers/perf/arm_pmu.c validate_event(), validate_group(); kernel/events/core.c merge_sched_in()",
	.covers = "hw.CPU_CYCLES arg.group_fd read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING errno.EINVAL",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct perf_event_attr a = pa_sched_attr(PA_SCHED_ENABLED, 0);
	struct pa_sched_val v;
	int fd[65] = { 0 };

	fd[0] = pa_sched_open(0, -1);	/* the leader, disabled */
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
		pa_diag("the %d-th event was refused at open (%s)", n + 1, pa_errno_name(errno));
		for (int i = 0; i < n; i++)
			close(fd[i]);
		return;
	}
#endif
	pa_loop3(1);
	pa_sched_run(K, -1, NULL);
	for (int i = 0; i <= n; i++) {
		ASSERT_EQ(pa_sched_read(fd[i], &v), sizeof(v));
		pa_diag("member %d: %llu, enabled %llu, running %llu", i,
			(unsigned long long)v.value, (unsigned long long)v.enabled,
			(unsigned long long)v.running);
		EXPECT_GT(v.enabled, 0);
		EXPECT_EQ(v.running, 0);
		EXPECT_EQ(v.value, 0);
	}
	for (int i = 0; i <= n; i++)
		close(fd[i]);
}
