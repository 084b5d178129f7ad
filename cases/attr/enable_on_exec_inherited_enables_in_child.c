#include "perfabi.h"

#include <sys/personality.h>

/*
 * A disabled, inherited enable_on_exec page-fault counter on ourselves,
 * then a forked child (its context a clone of ours) that touches some
 * pages and execs the touch_pages fixture: only the child's copy is
 * enabled, at its exec (perf_event_enable_on_exec() unclones the child's
 * context and reschedules it), and its count is added to ours when it
 * exits (perf_event_exit_task() -> sync_child_event()). We never exec:
 * our own 100 pages, before and after, are not counted.
 *
 * The oracle is exact: a control counter whose child execs the fixture
 * touching 1 page, then the counter under test, whose child touches 200
 * pages and execs the fixture touching 65. The fixture's start-up faults
 * are the same in both (the same private copy of the image,
 * pa_exec_child_start(), at the same addresses: address-space
 * randomization off, arguments of one length), so the second counter reads
 * exactly 64 more than the control; one that counted the 200 pages before
 * the exec reads 264 more, one never enabled 0.
 *
 * One child per counter: a second child of one counter was sometimes not
 * counted at all (12 of 40 runs on 6.18; cause not established, the swap
 * of the parent's and the child's equivalent contexts in
 * perf_event_context_sched_out() is suspected), which is not what this
 * case is about.
 */
static uint64_t run_child(int pages, const char *arg, bool own_pages)
{
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int go, fd;
	pid_t pid;
	uint64_t v;

	attr.enable_on_exec = 1;
	attr.inherit = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pid = pa_exec_child_start(&go, pages, "touch_pages", arg);
	if (own_pages)
		pa_touch_pages(50);
	EXPECT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_exec_child_go(pid, go), 0);
	v = pa_read_one(fd);
	if (own_pages) {
		pa_touch_pages(50);
		EXPECT_EQ(pa_read_one(fd), v);
	}
	close(fd);
	return v;
}

PERFABI_CASE(
	.assertion = "attr.enable_on_exec with attr.inherit: the inherited copy is enabled by the child's own exec (a child whose new image touches 65 pages is counted exactly 64 more than a control child whose image touches 1; the 200 pages it touched before the exec are not counted) while the parent's event stays disabled (its own 100 pages are not counted)",
	.ref = "perf_event_open(2), enable_on_exec: \"a counter is automatically enabled after a call to exec(2)\", inherit; kernel/events/core.c perf_event_enable_on_exec(), sync_child_event()",
	.covers = "attr.enable_on_exec attr.inherit attr.disabled",
	.probe = pa_probe_self_perf,
) {
	int persona = personality(0xffffffff);
	uint64_t ctl, v;

	/* the exec'd image's stack starts at a random offset in its page
	 * unless ADDR_NO_RANDOMIZE (arch_align_stack()), and how many stack
	 * pages its start-up touches moves with it (seen: 22 to 24 faults);
	 * the personality passes to the children through fork and exec */
	if (persona == -1 || personality((unsigned long)persona | ADDR_NO_RANDOMIZE) == -1)
		pa_skip("personality(ADDR_NO_RANDOMIZE) refused (%s): the exec'd image's start-up faults vary with its random stack offset",
			pa_errno_name(errno));
	ctl = run_child(0, "001", false);
	v = run_child(200, "065", true);
	personality((unsigned long)persona);
	pa_diag("control child (1 page): %llu page faults counted; child touching 65 pages after its exec and 200 before: %llu",
		(unsigned long long)ctl, (unsigned long long)v);
	EXPECT_GE(ctl, 1);
	EXPECT_EQ(v, ctl + 64);
}
