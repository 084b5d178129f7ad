#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/wait.h>

/*
 * 38b435b16c36: when a child exited, the tear-down of its inherited events
 * walked the context's group lists, which hold group leaders only, and
 * left the siblings alone: they were never freed (a leak, with references
 * on the parent's events) and never folded their counts into the parent's
 * event. Since the fix each inherited group is torn down whole.
 *
 * Leader and sibling count the same page faults on this task and its
 * child: after the child touched PAGES fresh pages and was reaped, both
 * grew by at least PAGES and read the same value.
 */
#define PAGES 256

PERFABI_CASE(
	.assertion = "when a child exits, the inherited copies of a group's siblings are torn down with their leader and fold their counts into the parent's siblings: an inherited leader and sibling counting the same page faults both grow by at least the child's fresh pages and read equal values",
	.ref = "\"perf: fix tear-down of inherited group events\" 38b435b16c36 (2.6.39): kernel/events/core.c perf_event_exit_task_context() / perf_event_exit_event() handle the siblings of each inherited group (sync_child_event())",
	.covers = "attr.inherit arg.group_fd sw.PAGE_FAULTS",
	.fix = { .commit = "38b435b16c36", .subject = "perf: fix tear-down of inherited group events", .release = "2.6.39" },
	/* without the fix the child's sibling events leak, holding the
	 * parent's events: a memory leak on every run */
	.destructive = true,
	.probe = pa_probe_self_perf,
	.xfail = {
		/* 050735b08ca8 stopped breaking groups up on removal, which
		 * had let the exit walk reach the siblings (inferred: the
		 * fix names no Fixes:) */
		.from = "2.6.34",
		.to = "2.6.39",
		.why = "perf_event_exit_task_context() walked the group lists (leaders only): inherited siblings leaked and never added their counts to the parent's",
		.fix = "38b435b16c36",
	},
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t l0, s0, l1, s1;
	int leader, sib, st;
	pid_t child;

	attr.inherit = 1;
	leader = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	attr.disabled = 0;	/* goes with its leader */
	sib = ASSERT_OPEN(&attr, 0, -1, leader, 0);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	l0 = pa_read_one(leader);
	s0 = pa_read_one(sib);
	EXPECT_EQ(l0, s0);

	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		pa_touch_pages(PAGES);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &st, 0), child);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);

	l1 = pa_read_one(leader);
	s1 = pa_read_one(sib);
	pa_diag("leader %llu -> %llu, sibling %llu -> %llu",
		(unsigned long long)l0, (unsigned long long)l1,
		(unsigned long long)s0, (unsigned long long)s1);
	EXPECT_GE(l1 - l0, PAGES);
	EXPECT_GE(s1 - s0, PAGES);
	EXPECT_EQ(s1, l1);
	close(sib);
	close(leader);
}
