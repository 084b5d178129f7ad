#include "perfabi.h"

#include <sys/personality.h>

/*
 * A disabled enable_on_exec event attached to a child counts nothing until
 * the child's exec, then counts the new image (perf_event_enable_on_exec()).
 *
 * The oracle is exact: a control child execs the touch_pages fixture
 * touching 1 page; the child under test touches 200 pages first, then
 * execs it touching 65. The fixture's start-up faults are the same in both
 * (the same private copy of the image, pa_exec_child_start(), at the same
 * addresses: address-space randomization off, arguments of one length),
 * so the second event counts exactly 64 more than the control; one that
 * counted the 200 pages before the exec counts 264 more, one never
 * enabled 0.
 */
static uint64_t run_child(int pages, const char *arg)
{
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int go, fd;
	pid_t pid = pa_exec_child_start(&go, pages, "touch_pages", arg);
	uint64_t v;

	attr.enable_on_exec = 1;
	fd = ASSERT_OPEN(&attr, pid, -1, -1, 0);
	EXPECT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_exec_child_go(pid, go), 0);
	v = pa_read_one(fd);
	close(fd);
	return v;
}

PERFABI_CASE(
	.assertion = "attr.enable_on_exec: a disabled event on a task counts nothing before the task calls execve and starts counting at the exec: a child that touches 200 pages and then execs an image touching 65 is counted exactly 64 more than a control child whose image touches 1",
	.ref = "perf_event_open(2), enable_on_exec: \"If this bit is set, a counter is automatically enabled after a call to exec(2)\"; kernel/events/core.c perf_event_enable_on_exec()",
	.covers = "attr.enable_on_exec attr.disabled",
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
	ctl = run_child(0, "001");
	v = run_child(200, "065");
	personality((unsigned long)persona);
	pa_diag("control child (1 page): %llu page faults counted; child touching 200 pages before its exec and 65 after: %llu",
		(unsigned long long)ctl, (unsigned long long)v);
	EXPECT_GE(ctl, 1);
	EXPECT_EQ(v, ctl + 64);
}
