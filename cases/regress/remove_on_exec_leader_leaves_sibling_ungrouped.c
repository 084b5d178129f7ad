#include "perfabi.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>

/*
 * 037a3c43edfb: perf_event_remove_on_exec() took a remove_on_exec group
 * leader out of the task's context without detaching its group. A sibling
 * without remove_on_exec survived the exec still linked to the removed
 * leader: not in the context's groups, so never scheduled out or in again.
 * A software sibling then stayed on its CPU's counting list, counting
 * whatever ran there, and a later close of the leader promoted it a second
 * time (list corruption, merge_sched_in()). Fixed, the exec detaches the
 * group: the sibling becomes a singleton that follows its task.
 *
 * A child pinned with us to one CPU execs cat, which blocks reading an
 * empty pipe. The sibling has PERF_FORMAT_GROUP: before the exec a read
 * shows the group of two, after it a group of one (its own leader). While
 * cat sleeps we fault 256 pages on the same CPU: a sibling that follows
 * its task counts none of them.
 */
#define PRE_PAGES	16
#define OUR_PAGES	256

PERFABI_CASE(
	.assertion = "when exec removes a remove_on_exec group leader, its surviving sibling is detached into a group of its own: a PERF_FORMAT_GROUP read of the sibling shows nr 2 before the exec and nr 1 after it, and the sibling stops counting when the new image sleeps (0 of 256 page faults another task takes on the same CPU)",
	.ref = "\"perf/core: Detach event groups during remove_on_exec\" 037a3c43edfb (7.2, CVE-2026-64556; stable 6.1.191, 6.6.145, 6.12.96, 6.18.39, 7.1.4): kernel/events/core.c perf_event_remove_on_exec() -> perf_event_exit_event(event, ctx, DETACH_GROUP)",
	.alone = true,
	.covers = "attr.remove_on_exec read_format.GROUP arg.group_fd sw.PAGE_FAULTS",
	.fix = { .commit = "037a3c43edfb", .subject = "perf/core: Detach event groups during remove_on_exec", .release = "7.2", .cve = "CVE-2026-64556", .stable = "6.1.191 6.6.145 6.12.96 6.18.39 7.1.4" },
	.min_kernel = "5.13",	/* attr.remove_on_exec */
	.probe = pa_probe_self_perf,
	.destructive = true,
	.xfail = {
		.from = "5.13",	/* 2e498d0a74e5 "perf: Add support for event removal on exec" */
		.to = "7.2",
		.why = "perf_event_remove_on_exec() removed the leader with DETACH_EXIT only: the sibling kept the dead leader (group read nr 2), stayed active on its CPU, and closing the leader corrupted the context's active list",
		.fix = "037a3c43edfb",
		/* Debian changelogs: ChangeLog-6.12.96, ChangeLog-6.1.191; the rest from the CVE record */
		.fixed_in = "6.1.191 6.6.145 6.12.96 6.18.39 7.1.4",
	},
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int cpus[1], go, in, leader, sib, status = -1;
	uint64_t v[3], before[3], l, s_sleep;
	pid_t pid;

	ASSERT_EQ(pa_allowed_cpus(cpus, 1), 1);
	ASSERT_OK(pa_pin_cpu(cpus[0]));	/* the child inherits it */
	pid = pa_blocked_cat_start(&go, &in, PRE_PAGES);

	attr.disabled = 0;
	attr.remove_on_exec = 1;
	leader = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	attr.remove_on_exec = 0;
	attr.read_format = PERF_FORMAT_GROUP;
	sib = ASSERT_OPEN(&attr, pid, -1, leader, 0);
	pa_read_u64(sib, before, 3);
	EXPECT_EQ(before[0], 2);	/* the group: leader and sibling */

	pa_blocked_cat_go(pid, go);	/* cat sleeps in read() */

	l = pa_read_one(leader);	/* frozen at the exec */
	pa_read_u64(sib, v, 2);
	EXPECT_EQ(v[0], 1);		/* a group of its own now */
	s_sleep = v[1];
	pa_diag("leader %llu (before exec), sibling %llu (with the new image)",
		(unsigned long long)l, (unsigned long long)s_sleep);
	EXPECT_GE(l, PRE_PAGES);
	EXPECT_GT(s_sleep, l);		/* it went on counting the new image */

	pa_touch_pages(OUR_PAGES);	/* on its CPU, while its task sleeps */
	pa_read_u64(sib, v, 2);
	EXPECT_EQ(v[0], 1);
	EXPECT_EQ(v[1], s_sleep);
	EXPECT_EQ(pa_task_state(pid, 0, "cat"), 'S');	/* it slept throughout */

	close(in);			/* EOF: cat exits */
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(go);
	close(sib);
	close(leader);			/* the close that corrupted the list */
}
