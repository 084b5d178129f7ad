#include "perfabi.h"

#include <sys/wait.h>

/*
 * The child touches `pages` fresh pages, says so and blocks; the parent
 * reads its two counters then, while the child is alive: "inh" (inherit)
 * minus "own" (no inherit: the parent alone) is the child's share. The
 * child's own copy-on-write faults are the same for every child, so a
 * child touching 512 more pages shows exactly 512 more.
 */
static uint64_t alive_share(int inh, int own, int pages)
{
	uint64_t i0, o0, i1, o1;
	int p[2], q[2], st;
	char c = 0;
	pid_t pid;

	ASSERT_OK(pipe(p));
	ASSERT_OK(pipe(q));
	i0 = pa_read_one(inh);
	o0 = pa_read_one(own);
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		pa_touch_pages(pages);
		if (write(p[1], &c, 1) != 1 || read(q[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(read(p[0], &c, 1), 1);
	i1 = pa_read_one(inh);		/* the child is alive */
	o1 = pa_read_one(own);
	ASSERT_EQ(write(q[1], &c, 1), 1);
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
	return (i1 - i0) - (o1 - o0);
}

PERFABI_CASE(
	.assertion = "with inherit set, reading the parent's event while an inherited child still runs already includes the child's counts: a live child that touched 512 more fresh pages shows exactly 512 more",
	.ref = "perf_event_open(2), inherit; kernel/events/core.c perf_event_read_value() sums event->child_list",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	uint64_t base, more;
	int inh, own;

	a.inherit = 1;
	a.disabled = 0;
	b.disabled = 0;
	inh = ASSERT_OPEN(&a, 0, -1, -1, 0);
	own = ASSERT_OPEN(&b, 0, -1, -1, 0);
	base = alive_share(inh, own, 1);
	more = alive_share(inh, own, 1 + 512);
	pa_diag("live child that touched 1 page: %llu, 513 pages: %llu",
		(unsigned long long)base, (unsigned long long)more);
	EXPECT_GE(base, 1u);
	EXPECT_EQ(more - base, 512u);
	close(own);
	close(inh);
}
