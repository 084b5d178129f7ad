#include "perfabi.h"

#include <sys/wait.h>

/*
 * Inheritance happens at fork (perf_event_init_task() copies the forking
 * task's inheritable events). A child that existed before the event was
 * opened has no copy, so nothing it forks later gets one either.
 *
 * Two puppets on command fork a grandchild that touches 512 fresh pages
 * and reap it: "old", forked before the event was opened, and, as the
 * control that grandchildren are seen at all, "new", forked after. Two
 * counters on us: "inh" (inherit) and "own" (no inherit: us alone);
 * inh - own is what our descendants added. Through the old puppet it
 * must be exactly 0 (the old puppet itself is not counted either).
 */
#define PAGES 512

static void fork_grandchild(int pages)
{
	pid_t gc = fork();
	int st;

	if (gc < 0)
		_exit(3);
	if (gc == 0) {
		pa_touch_pages(pages);
		_exit(0);
	}
	if (waitpid(gc, &st, 0) != gc || !WIFEXITED(st) || WEXITSTATUS(st))
		_exit(4);
}

static uint64_t descendants_share(int inh, int own, struct pa_puppet *p)
{
	uint64_t i0 = pa_read_one(inh), o0 = pa_read_one(own);

	pa_puppet_run(p, fork_grandchild, PAGES);
	return (pa_read_one(inh) - i0) - (pa_read_one(own) - o0);
}

PERFABI_CASE(
	.assertion = "with inherit set, a grandchild forked (after the open) by a child that existed before the event was opened is not counted: its 512 page faults add exactly 0 to the parent's event",
	.ref = "perf_event_open(2), inherit: \"This applies only to new children, not to any existing children at the time the counter is created (nor to any new children of existing children)\"",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	struct pa_puppet old, young;
	uint64_t via_old, via_new;
	int inh, own;

	pa_puppet_start(&old);		/* exists before the event */
	a.inherit = 1;
	a.disabled = 0;
	b.disabled = 0;
	inh = ASSERT_OPEN(&a, 0, -1, -1, 0);
	own = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_puppet_start(&young);	/* forked after: inherits inh */
	via_old = descendants_share(inh, own, &old);
	via_new = descendants_share(inh, own, &young);
	pa_diag("grandchild through the old child added %llu, through the new child %llu",
		(unsigned long long)via_old, (unsigned long long)via_new);
	EXPECT_EQ(via_old, 0u);
	/* control: the same work through a new child is counted */
	EXPECT_GE(via_new, (uint64_t)PAGES);
	pa_puppet_stop(&young);
	pa_puppet_stop(&old);
	close(own);
	close(inh);
}
