#include "perfabi.h"

#include <sys/wait.h>

/*
 * While an inherited child lives, a read of the parent's event adds the
 * child's event (found on the parent's child_list); when the child exits,
 * sync_child_event() adds its count to the parent's child_count and the
 * child event leaves child_list. A kernel that does one without the other
 * counts the child twice (or not at all) once it has exited.
 *
 * The child touches `pages` fresh pages, says so and blocks; it does
 * nothing more in user space before _exit(). "inh" (inherit) minus "own"
 * (no inherit: the parent alone; it also keeps the child's context from
 * being a clone of ours) is the child's share: read while the child is
 * alive and again after it is reaped, the two must be equal, and a child
 * touching 512 more pages must add exactly 512 more.
 */
struct share {
	uint64_t alive, reaped;
};

/*
 * inh and own read as a pair: the parent's own count did not move while
 * inh was read (a parent fault between the two reads, say a page the
 * kernel migrated or reclaimed, would count in one read and not the
 * other). Bounded; the last pair is kept.
 */
static void read_pair(int inh, int own, uint64_t *i, uint64_t *o)
{
	for (int k = 0; k < 100; k++) {
		uint64_t before = pa_read_one(own);

		*i = pa_read_one(inh);
		*o = pa_read_one(own);
		if (*o == before)
			return;
	}
}

static struct share child_share(int inh, int own, int pages)
{
	uint64_t i0, o0, i1, o1, i2, o2;
	int p[2], q[2], st;
	struct share s;
	char c = 0;
	pid_t pid;

	ASSERT_OK(pipe(p));
	ASSERT_OK(pipe(q));
	read_pair(inh, own, &i0, &o0);
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		pa_touch_pages(pages);
		if (write(p[1], &c, 1) != 1 || read(q[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(read(p[0], &c, 1), 1);
	read_pair(inh, own, &i1, &o1);
	ASSERT_EQ(write(q[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	read_pair(inh, own, &i2, &o2);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	s.alive = (i1 - i0) - (o1 - o0);
	s.reaped = (i2 - i0) - (o2 - o0);
	return s;
}

PERFABI_CASE(
	.assertion = "with inherit set, a child's events are counted exactly once: the child's share of the parent's value is the same read while the child is alive (its work done) and after it has exited and been reaped, and a child touching 512 more fresh pages adds exactly 512 more",
	.ref = "perf_event_open(2), inherit: \"this counter should count events of child tasks as well as the task specified\"; kernel/events/core.c perf_event_read_value() (child_list) and sync_child_event() (child_count at exit)",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	struct share base, more;
	int inh, own;

	a.inherit = 1;
	a.disabled = 0;
	b.disabled = 0;
	inh = ASSERT_OPEN(&a, 0, -1, -1, 0);
	own = ASSERT_OPEN(&b, 0, -1, -1, 0);
	base = child_share(inh, own, 1);
	more = child_share(inh, own, 1 + 512);
	pa_diag("1 page: %llu alive, %llu reaped; 513 pages: %llu alive, %llu reaped",
		(unsigned long long)base.alive, (unsigned long long)base.reaped,
		(unsigned long long)more.alive, (unsigned long long)more.reaped);
	EXPECT_GE(base.alive, 1u);
	EXPECT_EQ(base.reaped, base.alive);
	EXPECT_EQ(more.reaped, more.alive);
	EXPECT_EQ(more.reaped - base.reaped, 512u);
	close(own);
	close(inh);
}
