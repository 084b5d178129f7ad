#include "perfabi.h"

#include <sys/wait.h>

/*
 * Inheritance is recursive: a child forked after the event was opened
 * gets an inherited copy, and so does every child it forks later (its copy
 * links back to the original event, inherit_event()).
 *
 * The child here is a puppet forked after the open; on command it forks a
 * grandchild that touches `pages` fresh pages, and reaps it. Three
 * counters: "inh" (inherit) on us, "own" (no inherit) on us, "pup" (no
 * inherit) on the puppet: inh - own - pup is the grandchild's share. The
 * grandchild's own copy-on-write faults are the same every time, so a
 * grandchild touching 512 more pages adds exactly 512 more.
 */
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

static uint64_t grandchild_share(int inh, int own, int pup,
				 struct pa_puppet *p, int pages)
{
	uint64_t i0 = pa_read_one(inh), o0 = pa_read_one(own), p0 = pa_read_one(pup);

	pa_puppet_run(p, fork_grandchild, pages);
	return (pa_read_one(inh) - i0) - (pa_read_one(own) - o0) -
	       (pa_read_one(pup) - p0);
}

PERFABI_CASE(
	.assertion = "with inherit set, a grandchild forked by a child that was itself forked after the event was opened is counted: a grandchild touching 512 more fresh pages adds exactly 512 more to the parent's event",
	.ref = "perf_event_open(2), inherit: \"This applies only to new children\"; kernel/events/core.c perf_event_init_context() and inherit_event() (inherited events are inherited again, linked to the original)",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	uint64_t base, more;
	struct pa_puppet p;
	int inh, own, pup;

	a.inherit = 1;
	a.disabled = 0;
	b.disabled = 0;
	inh = ASSERT_OPEN(&a, 0, -1, -1, 0);
	own = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_puppet_start(&p);		/* a new child: it inherits inh */
	pup = ASSERT_OPEN(&b, p.pid, -1, -1, 0);
	grandchild_share(inh, own, pup, &p, 1);	/* warm-up */
	base = grandchild_share(inh, own, pup, &p, 1);
	more = grandchild_share(inh, own, pup, &p, 1 + 512);
	pa_diag("grandchild touching 1 page added %llu, 513 pages %llu",
		(unsigned long long)base, (unsigned long long)more);
	EXPECT_GE(base, 1u);
	EXPECT_EQ(more - base, 512u);
	pa_puppet_stop(&p);
	close(pup);
	close(own);
	close(inh);
}
