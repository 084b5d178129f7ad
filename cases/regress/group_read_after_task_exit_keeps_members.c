#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * 050735b08ca8: when the task a group was attached to exited, removing
 * its events from the context also broke the group up, so a
 * PERF_FORMAT_GROUP read() of the leader afterwards returned the leader
 * alone (nr 1). Since the fix the exit keeps the group: the read gives
 * every member, with the values it had before the exit.
 *
 * Leader and first sibling count the same page faults (equal values), the
 * second sibling is a dummy (0); the group is disabled before the exit,
 * so the values cannot move across it.
 */
#define PAGES 32
#define FMT (PERF_FORMAT_GROUP | PERF_FORMAT_ID)
#define N 3

PERFABI_CASE(
	.assertion = "a PERF_FORMAT_GROUP read() of a leader whose task has exited and been reaped still returns the whole group: nr 3, each member's id in group order, and the values read just before the exit",
	.ref = "\"perf: Fix exit() vs PERF_FORMAT_GROUP\" 050735b08ca8 (2.6.34): kernel/events/core.c perf_event_exit_task() removes the events without perf_group_detach() (DETACH_GROUP only for inherited events), perf_read_group()",
	.covers = "read_format.GROUP read_format.ID arg.pid arg.group_fd",
	.fix = { .commit = "050735b08ca8", .subject = "perf: Fix exit() vs PERF_FORMAT_GROUP", .release = "2.6.34" },
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "2.6.31",	/* PERF_FORMAT_GROUP */
		.to = "2.6.34",
		.why = "removing an exiting task's events broke their groups up: the leader's group read gave nr 1",
		.fix = "050735b08ca8",
	},
) {
	static const uint64_t cfg[N] = {
		PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_DUMMY,
	};
	uint64_t id[N], before[1 + 2 * N], after[1 + 2 * N];
	struct pa_puppet p;
	int fd[N];

	pa_puppet_start(&p);
	for (int i = 0; i < N; i++) {
		struct perf_event_attr attr = pa_sw_attr(cfg[i]);

		attr.read_format = FMT;
		attr.disabled = i == 0;
		fd[i] = ASSERT_OPEN(&attr, p.pid, -1, i ? fd[0] : -1, 0);
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
	}
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_puppet_run(&p, pa_work_pages, PAGES);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd[0], before, 1 + 2 * N);
	ASSERT_EQ(before[0], N);
	EXPECT_GE(before[1], PAGES);
	EXPECT_EQ(before[3], before[1]);
	EXPECT_EQ(before[5], 0);

	pa_puppet_stop(&p);	/* exits, reaped */
	pa_read_u64(fd[0], after, 1 + 2 * N);
	ASSERT_EQ(after[0], N);
	for (int i = 0; i < N; i++) {
		EXPECT_EQ(after[2 + 2 * i], id[i]);
		EXPECT_EQ(after[1 + 2 * i], before[1 + 2 * i]);
	}
	for (int i = N; i--;)
		close(fd[i]);
}
