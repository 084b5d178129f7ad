#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * An inherited group (leader and members all inherit = 1) on this task,
 * read with PERF_FORMAT_GROUP while a forked child that inherited it is
 * still alive. perf_read_group() adds up, under leader->child_mutex, the
 * leader's own group (__perf_read_group_add(leader): each member's
 * perf_event_count(), which holds its own count plus the child_count of
 * children that have exited) and then, for each child leader on
 * leader->child_list, that child's group the same way: a live child's
 * counts are in the read, member by member, not only once it exits.
 *
 * The child is a pa_puppet forked after the group was opened (so it
 * inherits it): it sleeps in read() between commands. Its first commands
 * (touch 1 page) fault in its own copy of everything the command path
 * writes, and ours, so that around a later command we take no faults and
 * the child exactly its touched pages. Reads before and after the child
 * touches TOUCHED fresh pages then differ by exactly TOUCHED in the
 * page-fault leader and the minor-fault member (a fresh anonymous page is
 * a minor fault) and by 0 in the dummy member; ids are the ones
 * PERF_EVENT_IOC_ID gave our events (primary_event_id() of the child's).
 * A read that left the live child out would differ by 0. Context swaps
 * between us and the child (our contexts are clones) move counts between
 * the events of the two contexts, never out of the sum.
 *
 * PARKED: the behaviour is the source's, not yet a documented one:
 * perf_event_open(2) says that inherit counts child tasks and describes
 * PERF_FORMAT_GROUP, but not whether a group read includes a child that
 * is still running (rather than only the children folded in at exit);
 * the kernel may also refuse such a read with ECHILD where a child's
 * group no longer matches the parent's (__perf_read_group_add()), which
 * this case never provokes. Passes 20/20, then 100/100, on 6.18.44 (2
 * CPUs), and 20/20 with both CPUs busy, with an exact oracle: it can move
 * to cases/group/ once that reading of the man page is accepted.
 */
#define TOUCHED	96

static void group_read(int fd, uint64_t *b)
{
	ASSERT_EQ(read(fd, b, 8 * 7), 8 + 3 * 16);
	ASSERT_EQ(b[0], 3);
}

PERFABI_CASE(
	.assertion = "a PERF_FORMAT_GROUP read of an inherited group includes the counts of a child that inherited it and is still alive: across the child touching 96 fresh pages (no faults of our own), the page-fault leader and the minor-fault member each grow by exactly 96, the dummy member by 0, ids unchanged",
	.ref = "perf_event_open(2), inherit, read_format PERF_FORMAT_GROUP; kernel/events/core.c perf_read_group() walks leader->child_list and adds each child's group (__perf_read_group_add())",
	.covers = "attr.inherit read_format.GROUP read_format.ID arg.group_fd sw.PAGE_FAULTS sw.PAGE_FAULTS_MIN sw.DUMMY",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	struct perf_event_attr d = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const uint64_t grow[3] = { TOUCHED, TOUCHED, 0 };
	uint64_t b0[7], b1[7], id[3];
	struct pa_puppet child;
	int fd[3];

	l.inherit = s.inherit = d.inherit = 1;
	l.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	l.disabled = 0;
	s.disabled = 0;
	d.disabled = 0;
	fd[0] = ASSERT_OPEN(&l, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&s, 0, -1, fd[0], 0);
	fd[2] = ASSERT_OPEN(&d, 0, -1, fd[0], 0);
	for (int i = 0; i < 3; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));

	pa_puppet_start(&child);
	/* warm-up: the same read, command, read path as the measured one */
	for (int w = 0; w < 2; w++) {
		group_read(fd[0], b0);
		pa_puppet_run(&child, pa_touch_pages, 1);
		group_read(fd[0], b1);
	}
	group_read(fd[0], b0);
	pa_puppet_run(&child, pa_touch_pages, TOUCHED);
	group_read(fd[0], b1);
	/* the child has not exited: it waits for its next command */
	EXPECT_EQ(kill(child.pid, 0), 0);
	for (int i = 0; i < 3; i++) {
		pa_diag("member %d: %llu -> %llu", i, (unsigned long long)b0[1 + 2 * i],
			(unsigned long long)b1[1 + 2 * i]);
		EXPECT_EQ(b1[1 + 2 * i] - b0[1 + 2 * i], grow[i]);
		EXPECT_EQ(b0[2 + 2 * i], id[i]);
		EXPECT_EQ(b1[2 + 2 * i], id[i]);
	}
	pa_puppet_stop(&child);
	for (int i = 0; i < 3; i++)
		close(fd[i]);
}
