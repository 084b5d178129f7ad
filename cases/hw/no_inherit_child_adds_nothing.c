#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations of the child */

/*
 * Without attr.inherit a per-task event stays on its task:
 * perf_event_init_task() -> inherit_task_group() copies only events with
 * attr.inherit set, so a forked child has no counter and nothing it runs
 * reaches the parent's event.
 *
 * Two runs of the same code: ENABLE, fork a child that runs pa_loop3(n)
 * and exits, waitpid, DISABLE, read; n = K, then 2K. User space only, on a
 * PMU that counts every instruction (QEMU -icount shift=0; a static
 * binary): the parent runs the same instructions both times, so its two
 * counts are equal exactly; an inherited count would differ by 3K
 * (hw/inherit_child_instructions_exact).
 */
PERFABI_CASE(
	.assertion = "attr.inherit = 0 on PERF_COUNT_HW_INSTRUCTIONS does not count a forked child: K more iterations of a "
		     "3-instruction loop in the child add exactly 0 to the parent's user-space count read after waitpid(), on "
		     "a PMU that counts every instruction",
	.ref = "perf_event_open(2), inherit; kernel/events/core.c perf_event_init_task(), inherit_task_group() "
	       "(!event->attr.inherit: not copied)",
	.covers = "attr.inherit hw.INSTRUCTIONS",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_hw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	int fd;

	pa_need_exact_pmu();
	a.inherit = 0;
	fd = pa_hw_open_attr(&a, 0, -1, -1);
	EXPECT_EQ(pa_hw_fork_delta(fd, K), 0);
	close(fd);
}
