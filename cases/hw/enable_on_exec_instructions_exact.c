#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* iterations of the fixture's loop */

/*
 * attr.enable_on_exec: an event opened disabled is enabled when its task
 * calls exec (begin_new_exec() -> perf_event_exec() ->
 * perf_event_enable_on_exec(), before the new program's first user
 * instruction). Opened on this task with inherit, as perf stat's workload
 * is counted: the forked child gets a disabled copy with the same attr
 * (inherit_event()), which its exec of the fixture enables; the parent's
 * own event, whose task never execs, stays disabled; the child's count is
 * added to the parent's when it exits (sync_child_event()).
 *
 * Two runs of the fixture loop3 (fixtures/progs/loop3.c: a static program
 * that runs the 3-instruction loop N times): N = 1000000, then 2000000,
 * argument strings of the same length, so the two runs execute the same
 * user instructions but for the loop's K more iterations. User space
 * only, on a PMU that counts every instruction (QEMU -icount shift=0): the
 * counts differ by exactly 3K. Were the event not enabled by the exec, both
 * would read 0. Each run on an event of its own: PERF_EVENT_IOC_RESET
 * would not clear the children's counts already folded in.
 */
static uint64_t run(const char *arg)
{
	struct perf_event_attr a = pa_hw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	uint64_t v;
	int fd;

	a.inherit = 1;
	a.enable_on_exec = 1;
	fd = pa_hw_open_attr(&a, 0, -1, -1);
	ASSERT_EQ(pa_run_fixture("loop3", arg), 0);
	v = pa_read_one(fd);
	close(fd);
	return v;
}

PERFABI_CASE(
	.assertion = "attr.enable_on_exec enables a disabled PERF_COUNT_HW_INSTRUCTIONS event at exec: inherited by a child "
		     "that execs a program running a 3-instruction loop, K more iterations of that loop add exactly 3K to the "
		     "user-space count, on a PMU that counts every instruction",
	.ref = "perf_event_open(2), enable_on_exec \"If this bit is set, a counter is automatically enabled after a call to "
	       "exec(2)\"; kernel/events/core.c perf_event_enable_on_exec(), inherit_event()",
	.covers = "attr.enable_on_exec attr.inherit hw.INSTRUCTIONS",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t one, two;

	pa_need_exact_pmu();
	(void)run("1000000");	/* the path once before */
	one = run("1000000");
	two = run("2000000");
	pa_diag("%llu counted over the fixture with %llu iterations, %llu with %llu", (unsigned long long)one,
		(unsigned long long)K, (unsigned long long)two, (unsigned long long)(2 * K));
	EXPECT_EQ(two - one, 3 * K);
}
