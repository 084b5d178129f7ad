#include "perfabi.h"

#include <sys/wait.h>

/*
 * inherit is not limited to self-monitoring: an event attached to another
 * task (pid > 0) sits in that task's context, and perf_event_init_task()
 * copies it into every child the task forks afterwards.
 *
 * The target is a puppet (our child, forked before the events); on
 * command it forks a child that touches `pages` fresh pages and reaps it.
 * Two counters on the puppet: "inh" (inherit) and "own" (no inherit: the
 * puppet alone); inh - own is the share of the puppet's child. Its own
 * copy-on-write faults are the same every time, so a child touching 512
 * more pages adds exactly 512 more.
 */
static void fork_child(int pages)
{
	pid_t c = fork();
	int st;

	if (c < 0)
		_exit(3);
	if (c == 0) {
		pa_touch_pages(pages);
		_exit(0);
	}
	if (waitpid(c, &st, 0) != c || !WIFEXITED(st) || WEXITSTATUS(st))
		_exit(4);
}

static uint64_t child_share(int inh, int own, struct pa_puppet *p, int pages)
{
	uint64_t i0 = pa_read_one(inh), o0 = pa_read_one(own);

	pa_puppet_run(p, fork_child, pages);
	return (pa_read_one(inh) - i0) - (pa_read_one(own) - o0);
}

PERFABI_CASE(
	.assertion = "inherit on an event attached to another process (pid > 0): the children that process forks after the open are counted, each exactly once (a child touching 512 more fresh pages adds exactly 512 more)",
	.ref = "perf_event_open(2), inherit: \"count events of child tasks as well as the task specified\"; kernel/events/core.c perf_event_init_context() walks the forking task's context, whoever opened the event",
	.covers = "attr.inherit arg.pid",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	uint64_t base, more;
	struct pa_puppet p;
	int inh, own;

	pa_puppet_start(&p);
	a.inherit = 1;
	a.disabled = 0;
	b.disabled = 0;
	inh = ASSERT_OPEN(&a, p.pid, -1, -1, 0);
	own = ASSERT_OPEN(&b, p.pid, -1, -1, 0);
	child_share(inh, own, &p, 1);	/* warm-up */
	base = child_share(inh, own, &p, 1);
	more = child_share(inh, own, &p, 1 + 512);
	pa_diag("the target's child touching 1 page added %llu, 513 pages %llu",
		(unsigned long long)base, (unsigned long long)more);
	EXPECT_GE(base, 1u);
	EXPECT_EQ(more - base, 512u);
	pa_puppet_stop(&p);
	close(own);
	close(inh);
}
