#include "perfabi.h"

#include <sys/prctl.h>

/*
 * prctl(PR_TASK_PERF_EVENTS_DISABLE/ENABLE) acts on each event the caller
 * opened together with its inherited copies: perf_event_task_disable()
 * applies _perf_event_disable to the event and to every event on its
 * child_list (perf_event_for_each_child()). So a child forked after the
 * open stops counting while its parent has its events disabled, and
 * counts again after the parent's PR_TASK_PERF_EVENTS_ENABLE.
 *
 * The child is a puppet forked after the open. "inh" (inherit) and "own"
 * (no inherit: us alone) are both ours; inh - own is the puppet's share.
 */
static uint64_t puppet_share(int inh, int own, struct pa_puppet *p, int pages)
{
	uint64_t i0 = pa_read_one(inh), o0 = pa_read_one(own);

	pa_puppet_run(p, pa_work_pages, pages);
	return (pa_read_one(inh) - i0) - (pa_read_one(own) - o0);
}

PERFABI_CASE(
	.assertion = "PR_TASK_PERF_EVENTS_DISABLE by the process that opened an inherited event also stops its copies in children forked after the open (a child's 512 page faults add exactly 0), and PR_TASK_PERF_EVENTS_ENABLE starts them again (a child touching 512 more pages adds exactly 512 more)",
	.ref = "perf_event_open(2), \"A process can enable or disable all currently open event groups using prctl(2) PR_TASK_PERF_EVENTS_ENABLE and PR_TASK_PERF_EVENTS_DISABLE\"; kernel/events/core.c perf_event_task_disable()/perf_event_task_enable(): perf_event_for_each_child()",
	.covers = "prctl.TASK_PERF_EVENTS_DISABLE prctl.TASK_PERF_EVENTS_ENABLE attr.inherit",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr b = a;
	int want = pa_expected_errno(PA_NEED_SELF);
	uint64_t v0, v1, base, more;
	struct pa_puppet p;
	int inh, own;

	a.inherit = 1;
	a.disabled = 0;
	b.disabled = 0;
	inh = EXPECT_OPEN_RESULT(&a, 0, -1, -1, 0, want);
	if (want)
		return;
	own = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_puppet_start(&p);		/* forked after the open: inherits inh */
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	v0 = pa_read_one(inh);
	pa_puppet_run(&p, pa_work_pages, 512);
	v1 = pa_read_one(inh);
	EXPECT_EQ(v1, v0);
	ASSERT_OK(prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	base = puppet_share(inh, own, &p, 1);
	more = puppet_share(inh, own, &p, 1 + 512);
	pa_diag("disabled: %llu -> %llu; enabled: a command touching 1 page added %llu, 513 pages %llu",
		(unsigned long long)v0, (unsigned long long)v1,
		(unsigned long long)base, (unsigned long long)more);
	EXPECT_EQ(more - base, 512u);
	pa_puppet_stop(&p);
	close(own);
	close(inh);
}
