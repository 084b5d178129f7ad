#include "perfabi.h"

#include <sys/wait.h>

/*
 * Two counters on this task, enabled together: "inh" (inherit = 1) and
 * "own" (inherit = 0, which also keeps the child's context from being a
 * clone of ours, so the kernel never swaps the two). inh - own over a
 * fork + reap is what the child added to the parent. A forked child takes
 * a few copy-on-write faults of its own, the same for every child; two
 * children that touch 1 and 1 + 512 fresh pages therefore add exactly 512
 * apart. A child that is not folded in adds 0, one counted twice 1024.
 */
static uint64_t child_share(int inh, int own, int pages)
{
	uint64_t i0, o0, i1, o1;
	pid_t pid;
	int st;

	i0 = pa_read_one(inh);
	o0 = pa_read_one(own);
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		pa_touch_pages(pages);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	i1 = pa_read_one(inh);
	o1 = pa_read_one(own);
	return (i1 - i0) - (o1 - o0);
}

PERFABI_CASE(
	.assertion = "with inherit set, a forked child's counts are added to the parent's event: after the child exits and is reaped, the parent's value has grown by exactly the child's page faults (a child touching 512 more fresh pages adds exactly 512 more)",
	.ref = "perf_event_open(2), inherit: \"The inherit bit specifies that this counter should count events of child tasks as well as the task specified\"; kernel/events/core.c sync_child_event()",
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
	base = child_share(inh, own, 1);
	more = child_share(inh, own, 1 + 512);
	pa_diag("child touching 1 page added %llu, 513 pages %llu",
		(unsigned long long)base, (unsigned long long)more);
	EXPECT_GE(base, 1u);
	EXPECT_EQ(more - base, 512u);
	close(own);
	close(inh);
}
