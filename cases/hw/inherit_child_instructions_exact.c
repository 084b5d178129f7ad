#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations of the child */

/*
 * attr.inherit: a child forked while the event is enabled gets its own
 * copy (perf_event_init_task() -> inherit_event(), enabled as the parent
 * event is), and when it exits its count is added to the parent event
 * (perf_event_exit_task() -> perf_event_exit_event() -> sync_child_event()
 * adds it to child_count, before exit_notify(), so before the parent's
 * waitpid() returns); read() of the parent gives count + child_count
 * (perf_event_read_value()).
 *
 * Two runs of the same code, each on an event of its own (open, ENABLE,
 * fork a child that runs pa_loop3(n) and exits, waitpid, DISABLE, read,
 * close), n = K, then 2K. A fresh event each time because
 * PERF_EVENT_IOC_RESET zeroes only event->count, not the child_count of
 * children already folded in (_perf_event_reset()). User space only, on a
 * PMU that counts every instruction (QEMU -icount shift=0; the binary is
 * static, so no run binds symbols the other did not): the second count is
 * exactly 3K above the first, all of it the child's instructions.
 */
static uint64_t run(uint64_t k)
{
	struct perf_event_attr a = pa_hw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	uint64_t v;
	int fd;

	a.inherit = 1;
	fd = pa_hw_open_attr(&a, 0, -1, -1);
	v = pa_hw_fork_count(fd, k);
	close(fd);
	return v;
}

PERFABI_CASE(
	.assertion = "attr.inherit = 1 on PERF_COUNT_HW_INSTRUCTIONS counts a child forked while it is enabled: K more "
		     "iterations of a 3-instruction loop in the child add exactly 3K to the parent's user-space count read "
		     "after waitpid(), on a PMU that counts every instruction",
	.ref = "perf_event_open(2), inherit \"The inherit bit specifies that this counter should count events of child "
	       "tasks as well as the task specified\"; kernel/events/core.c inherit_event(), sync_child_event(), "
	       "perf_event_read_value()",
	.covers = "attr.inherit hw.INSTRUCTIONS",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t one, two;

	pa_need_exact_pmu();
	pa_loop3(1);
	(void)run(1);	/* the path once before */
	one = run(K);
	two = run(2 * K);
	pa_diag("%llu counted with a child of %llu iterations, %llu with one of %llu", (unsigned long long)one,
		(unsigned long long)K, (unsigned long long)two, (unsigned long long)(2 * K));
	EXPECT_EQ(two - one, 3 * K);
}
