#include "perfabi.h"

#include <sys/prctl.h>
#include <sys/wait.h>

/*
 * prctl(PR_TASK_PERF_EVENTS_DISABLE) walks current->perf_event_list, the
 * events the caller opened (perf_event_task_disable()). A forked child
 * starts with that list empty (perf_event_init_task()), so its inherited
 * copies of our event are not on it: the child's prctl leaves them
 * counting.
 *
 * Children that first call prctl(PR_TASK_PERF_EVENTS_DISABLE), then touch
 * 1 or 1 + 512 fresh pages. "inh" (inherit) minus "own" (no inherit: us
 * alone) over fork + reap is the child's share: exactly 512 apart if the
 * child's copy kept counting, 0 apart if its prctl had stopped it.
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
		if (prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0))
			_exit(3);
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
	.assertion = "PR_TASK_PERF_EVENTS_DISABLE called by a child does not touch the events it inherited: after the child's prctl, a child touching 512 more fresh pages still adds exactly 512 more to the parent's inherited counter",
	.ref = "perf_event_open(2), \"This applies only to events created locally by the calling process. This does not apply to events created by other processes attached to the calling process or inherited events from a parent process\"; kernel/events/core.c perf_event_task_disable() (current->perf_event_list), perf_event_init_task() (the list starts empty)",
	.covers = "prctl.TASK_PERF_EVENTS_DISABLE attr.inherit",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	int want = pa_expected_errno(PA_NEED_SELF);
	uint64_t base, more;
	int inh, own;

	a.inherit = 1;
	a.disabled = 0;
	b.disabled = 0;
	inh = EXPECT_OPEN_RESULT(&a, 0, -1, -1, 0, want);
	if (want)
		return;
	own = ASSERT_OPEN(&b, 0, -1, -1, 0);
	base = child_share(inh, own, 1);
	more = child_share(inh, own, 1 + 512);
	pa_diag("child touching 1 page after its prctl added %llu, 513 pages %llu",
		(unsigned long long)base, (unsigned long long)more);
	EXPECT_EQ(more - base, 512u);
	close(own);
	close(inh);
}
