#include "perfabi.h"

#include <sys/wait.h>

/*
 * Two counters on this task: "plain" (inherit = 0) and "inh" (inherit = 1,
 * the control). A forked child touches 1 or 1 + 512 fresh pages and is
 * reaped. The parent does the same things around either fork, so the
 * plain counter, which counts the parent alone, grows by the same amount
 * both times: the child's 512 extra page faults add exactly 0. The
 * inherited counter shows that the children did take them (exactly 512
 * more). A warm-up fork first, so the parent's one-time faults are behind.
 */
struct deltas {
	uint64_t plain, inh;
};

static struct deltas fork_child(int plain, int inh, int pages)
{
	uint64_t p0, i0;
	struct deltas d;
	pid_t pid;
	int st;

	p0 = pa_read_one(plain);
	i0 = pa_read_one(inh);
	pid = fork();
	ASSERT_NE(pid, -1);
	if (pid == 0) {
		pa_touch_pages(pages);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	d.plain = pa_read_one(plain) - p0;
	d.inh = pa_read_one(inh) - i0;
	return d;
}

PERFABI_CASE(
	.assertion = "without inherit, a forked child's events are not counted by the parent's event: a child touching 512 more fresh pages adds exactly 0 to it",
	.ref = "perf_event_open(2), inherit (clear: only the monitored task counts)",
	.covers = "attr.inherit",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	struct deltas base, more;
	int plain, inh;

	a.disabled = 0;
	b.disabled = 0;
	b.inherit = 1;
	plain = ASSERT_OPEN(&a, 0, -1, -1, 0);
	inh = ASSERT_OPEN(&b, 0, -1, -1, 0);
	fork_child(plain, inh, 1);	/* warm-up */
	base = fork_child(plain, inh, 1);
	more = fork_child(plain, inh, 1 + 512);
	pa_diag("without inherit: +%llu (child touching 1 page), +%llu (513 pages); with inherit: +%llu, +%llu",
		(unsigned long long)base.plain, (unsigned long long)more.plain,
		(unsigned long long)base.inh, (unsigned long long)more.inh);
	EXPECT_EQ(more.plain, base.plain);
	EXPECT_EQ(more.inh - base.inh, 512u);	/* control */
	close(inh);
	close(plain);
}
