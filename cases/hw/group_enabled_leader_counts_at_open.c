#include "perfabi.h"

#include <errno.h>

/*
 * At open the PMU driver checks that the group, with the new member, can
 * fit its counters (arm's and x86's validate_group() schedule it on a
 * fake CPU). A leader opened enabled takes a counter in that check like
 * every enabled member (arm's validate_event() passes only events that
 * are off or in error), so with an enabled leader the group holds exactly
 * as many cycles events as the PMU has counters (PERFABI_PMU_COUNTERS)
 * and the open of one more fails with EINVAL. (group/hw_group_too_big_
 * einval finds the limit with a disabled leader, which arm does not
 * count: one event more.)
 */

PERFABI_CASE(
	.assertion = "a hardware group whose leader was opened enabled holds exactly as many cycles events as the PMU has counters: each of those opens, and the next member's open fails with EINVAL",
	.ref = "perf_event_open(2), ERRORS: EINVAL (\"In Linux 3.3, this was changed to EINVAL\" for an event that does not fit); drivers/perf/arm_pmu.c validate_group(), validate_event()",
	.covers = "hw.CPU_CYCLES arg.group_fd errno.EINVAL",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct perf_event_attr a = pa_sched_attr(PA_SCHED_ENABLED, 0);
	int fd[64] = { 0 };

	close(pa_sched_open(0, -1));	/* SKIP without a cycles event */
	fd[0] = ASSERT_OPEN(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	for (int i = 1; i < n; i++)
		fd[i] = ASSERT_OPEN(&a, 0, -1, fd[0], PERF_FLAG_FD_CLOEXEC);
	EXPECT_OPEN_FAIL(&a, 0, -1, fd[0], PERF_FLAG_FD_CLOEXEC, EINVAL);
	for (int i = 0; i < n; i++)
		close(fd[i]);
}
