#include "perfabi.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

/*
 * fd0815f632c2: closing a group leader promotes each sibling to a
 * singleton and puts it in the context's group tree. The test for that was
 * "is the leader in the tree" instead of "is this sibling still in the
 * context". Since remove_on_exec (2e498d0a74e5, 5.13) a sibling can leave
 * the context alone at an exec while staying linked to its leader: the
 * leader's close then put the removed sibling in the tree, its own close
 * freed it there, and the next walk of the tree (a new event, a context
 * switch) used freed memory (CVE-2023-2235).
 *
 * A child execs cat, which blocks on an empty pipe. Its leader L stays,
 * its sibling S (remove_on_exec) goes at the exec. While cat sleeps we
 * close L, read and close S, then open a new group on cat (insertion into
 * the tree) and let cat run to its exit (the context is scheduled). Every
 * event is opened disabled, so each value and time in a group read is 0;
 * nr and the ids say who is in which group.
 *
 * After the exec S is out of L's group on kernels with 037a3c43edfb
 * ("perf/core: Detach event groups during remove_on_exec", 7.2; stable
 * 6.1.191 6.6.145 6.12.96 6.18.39 7.1.4), and still L's sibling before it:
 * those kernels are the ones where L's close reaches the fixed test.
 */
#define FMT	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
		 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* Does this kernel's exec detach a remove_on_exec event from its group? */
static bool exec_detaches_group(void)
{
	static const char *const stable[] = {
		"6.1.191", "6.6.145", "6.12.96", "6.18.39", "7.1.4",
	};
	struct pa_kver k = pa_kernel(), f;

	if (pa_kernel_at_least("7.2"))
		return true;
	for (unsigned i = 0; i < sizeof(stable) / sizeof(stable[0]); i++)
		if (!pa_kver_parse(stable[i], &f) && f.major == k.major &&
		    f.minor == k.minor && k.patch >= f.patch)
			return true;
	return false;
}

/* A FMT group read of fd: nr members, all disabled since open (value and
 * both times 0), with exactly the ids given, in that order. */
static void expect_group(int fd, const char *when, unsigned nr, const uint64_t *ids)
{
	uint64_t buf[3 + 2 * 4] = { 0 };
	ssize_t want = (ssize_t)(3 + 2 * nr) * 8, n;

	n = read(fd, buf, sizeof(buf));
	if (n != want || buf[0] != nr) {
		pa_fail("%s: group read of %zd bytes, nr %llu (want %zd bytes, nr %u)",
			when, n, (unsigned long long)buf[0], want, nr);
		return;
	}
	EXPECT_EQ(buf[1], 0);	/* time enabled */
	EXPECT_EQ(buf[2], 0);	/* time running */
	for (unsigned m = 0; m < nr; m++) {
		if (buf[3 + 2 * m] != 0 || buf[4 + 2 * m] != ids[m])
			pa_fail("%s: member %u reads value %llu id %llu (want 0, id %llu)",
				when, m, (unsigned long long)buf[3 + 2 * m],
				(unsigned long long)buf[4 + 2 * m],
				(unsigned long long)ids[m]);
	}
}

static uint64_t event_id(int fd)
{
	uint64_t id = 0;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	return id;
}

PERFABI_CASE(
	.assertion = "closing a group leader whose sibling exec removed from the task (remove_on_exec) does not put that sibling back in the task's context: the sibling reads as a group of its own with its id, and after its close a new group on the same task, through the task's exit, reads exactly its two members and ids",
	.ref = "\"perf: Fix check before add_event_to_groups() in perf_group_detach()\" fd0815f632c2 (6.3, CVE-2023-2235; stable 6.1.21, 5.15.104): kernel/events/core.c perf_group_detach() adds a promoted sibling to the groups only if sibling->attach_state & PERF_ATTACH_CONTEXT",
	.covers = "attr.remove_on_exec arg.group_fd read_format.GROUP read_format.ID read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING ioctl.ID",
	.fix = { .commit = "fd0815f632c2", .subject = "perf: Fix check before add_event_to_groups() in perf_group_detach()", .release = "6.3", .cve = "CVE-2023-2235", .stable = "6.1.21 5.15.104" },
	.min_kernel = "5.13",	/* attr.remove_on_exec */
	.probe = pa_probe_self_perf,
	.destructive = true,
	.xfail = {
		.from = "5.13",	/* Fixes: 2e498d0a74e5, remove_on_exec */
		.to = "6.3",
		.why = "perf_group_detach() tested the leader's tree node, not the sibling's PERF_ATTACH_CONTEXT: closing the leader put the exec-removed sibling in the context's groups, and its close left freed memory there (use-after-free)",
		.fix = "fd0815f632c2",
		/* Debian changelogs: ChangeLog-6.1.21; 5.15.104 from its announcement */
		.fixed_in = "6.1.21 5.15.104",
	},
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	bool detaches = exec_detaches_group();
	uint64_t ids[2], ids2[2];
	int go, in, l, s, l2, m2, status = -1;
	pid_t pid;

	pid = pa_blocked_cat_start(&go, &in, 0);

	attr.read_format = FMT;
	l = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	attr.remove_on_exec = 1;
	s = ASSERT_OPEN(&attr, pid, -1, l, 0);
	ids[0] = event_id(l);
	ids[1] = event_id(s);
	expect_group(l, "leader before the exec", 2, ids);
	expect_group(s, "sibling before the exec", 2, ids);

	pa_blocked_cat_go(pid, go);	/* cat sleeps in read() */

	pa_diag("this kernel %s a remove_on_exec event from its group at exec (037a3c43edfb)",
		detaches ? "detaches" : "does not detach");
	if (detaches) {
		expect_group(l, "leader after the exec", 1, ids);
		expect_group(s, "sibling after the exec", 1, ids + 1);
	} else {
		expect_group(l, "leader after the exec", 2, ids);
		expect_group(s, "sibling after the exec", 2, ids);
	}

	close(l);	/* the close that re-queued the removed sibling */
	expect_group(s, "sibling after its leader's close", 1, ids + 1);
	close(s);	/* freed: on a kernel without the fix, still in the tree */

	/* a new group on cat: inserted into the same tree */
	attr.remove_on_exec = 0;
	l2 = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	m2 = ASSERT_OPEN(&attr, pid, -1, l2, 0);
	ids2[0] = event_id(l2);
	ids2[1] = event_id(m2);
	expect_group(l2, "new group on the exec'd task", 2, ids2);
	EXPECT_EQ(pa_task_state(pid, 0, "cat"), 'S');	/* it slept throughout */

	close(in);	/* EOF: cat runs (its context scheduled) and exits */
	EXPECT_EQ(waitpid(pid, &status, 0), pid);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	expect_group(l2, "new group after the task exited", 2, ids2);
	expect_group(m2, "new member after the task exited", 2, ids2);
	close(go);
	close(m2);
	close(l2);
}
