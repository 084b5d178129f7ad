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
 * its values, and over a loop it counts exactly 3 per iteration (exact
 * PMU: cycles == instructions).
 */

PERFABI_CASE(
	.assertion = "a pinned hardware event in error state stays there (read() returns 0) when a counter comes free, and PERF_EVENT_IOC_ENABLE revives it only when it then fits: afterwards it counts exactly 3 per iteration of a 3-instruction loop",
	.ref = "perf_event_open(2), pinned: \"reads return end-of-file ... until the event is subsequently enabled or disabled\"; kernel/events/core.c _perf_event_enable(), merge_sched_in()",
	.covers = "attr.pinned ioctl.ENABLE hw.CPU_CYCLES",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int n = pa_need_pmu_counters();
	struct pa_sched_val v;
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
	EXPECT_EQ(pa_hw_loop_delta(fd[n], K), 3 * K);
	for (int i = 1; i <= n; i++)
		close(fd[i]);
}
