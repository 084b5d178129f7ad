#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/prctl.h>

#define K 1000000ULL	/* loop iterations */

/*
 * A pinned event in error state stays there until it is enabled again:
 * the scheduler passes over events in error (merge_sched_in() takes only
 * those not OFF or worse), so a counter coming free does not bring it
 * back; PERF_EVENT_IOC_ENABLE clears the error (_perf_event_enable() sets
 * it OFF, then enables it) and it goes on if it fits, or back into error
 * if it does not. Here N pinned cycles events (PERFABI_PMU_COUNTERS) hold
 * the counters and one more pinned one is in error: ENABLE while they are
 * all held leaves it in error (read() 0); closing one of the N frees a
 * counter, but it still reads 0; ENABLE then puts it on: read() returns
 * its values, and over a run where all are enabled and disabled together
 * (prctl) it runs whole and counts exactly what each of the other pinned
 * events counts (an exact PMU, user space only).
 */

PERFABI_CASE(
	.assertion = "a pinned hardware event in error state stays there (read() returns 0) when a counter comes free, and PERF_EVENT_IOC_ENABLE revives it only when it then fits: afterwards it runs whole and counts exactly what the other pinned events count over the same run",
	.ref = "perf_event_open(2), pinned: \"reads return end-of-file ... until the event is subsequently enabled or disabled\"; kernel/events/core.c _perf_event_enable(), merge_sched_in()",
	.covers = "attr.pinned ioctl.ENABLE hw.CPU_CYCLES read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val v, w;
	int fd[65] = { 0 };

	pa_need_exact_pmu();
	for (int i = 0; i <= n; i++)
		fd[i] = pa_sched_open(PA_SCHED_PINNED, -1);
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	EXPECT_EQ(pa_sched_read(fd[n], &v), 0);		/* no counter: error */
	ASSERT_OK(ioctl(fd[n], PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(pa_sched_read(fd[n], &v), 0);		/* still none */
	close(fd[0]);					/* one comes free */
	EXPECT_EQ(pa_sched_read(fd[n], &v), 0);		/* error stays */
	ASSERT_OK(ioctl(fd[n], PERF_EVENT_IOC_ENABLE, 0));
	EXPECT_EQ(pa_sched_read(fd[n], &v), sizeof(v));	/* on */
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	for (int i = 1; i <= n; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_RESET, 0));
	pa_sched_run(K, -1, NULL);
	ASSERT_EQ(pa_sched_read(fd[1], &w), sizeof(w));
	ASSERT_EQ(pa_sched_read(fd[n], &v), sizeof(v));
	pa_diag("revived: %llu, enabled %llu, running %llu; another pinned: %llu",
		(unsigned long long)v.value, (unsigned long long)v.enabled,
		(unsigned long long)v.running, (unsigned long long)w.value);
	EXPECT_GT(v.value, 0);
	EXPECT_EQ(v.running, v.enabled);
	EXPECT_EQ(v.value, w.value);
	for (int i = 1; i <= n; i++)
		close(fd[i]);
}
