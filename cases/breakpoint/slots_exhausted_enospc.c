#include "perfabi.h"

static volatile uint64_t vars[8];

PERFABI_CASE(
	.assertion = "asking for more simultaneous breakpoints than the hardware has slots (x86: 4 debug registers) fails with ENOSPC",
	.ref = "perf_event_open(2), ENOSPC: \"Prior to Linux 3.3, if there was not enough room for the event... also returned if you try to add more breakpoint events than supported by the hardware\"; kernel/events/hw_breakpoint.c __reserve_bp_slot()",
	.alone = true,
	.covers = "errno.ENOSPC type.BREAKPOINT",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a;
	int fd[5];

#if !defined(__x86_64__) && !defined(__i386__)
	pa_skip("the number of breakpoint slots is known here only for x86 (4)");
#endif
	for (int i = 0; i < 4; i++) {
		a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&vars[i], HW_BREAKPOINT_LEN_8);
		a.pinned = 1;
		fd[i] = pa_perf_open(&a, 0, -1, -1, 0);
		if (fd[i] < 0 && errno == ENOSPC) {
			/* the slots are shared with CPU-wide breakpoints held
			 * outside this case (a system-wide perf mem: event,
			 * kgdb, a module's wide breakpoint): SKIP only where
			 * one may be, else the count is the kernel's */
			int free_slots = i;

			while (i-- > 0)
				close(fd[i]);
			pa_bp_enospc("only %d of x86's 4 breakpoint slots were free to this task",
				     free_slots);
		}
		if (fd[i] < 0) {
			pa_fail("breakpoint %d of 4: perf_event_open() failed with %s",
				i + 1, pa_errno_name(errno));
			pa_abort();
		}
	}
	a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&vars[4], HW_BREAKPOINT_LEN_8);
	a.pinned = 1;
	EXPECT_OPEN_FAIL(&a, 0, -1, -1, 0, ENOSPC);
	/* a slot freed is a slot available again */
	close(fd[0]);
	fd[4] = ASSERT_OPEN(&a, 0, -1, -1, 0);
	for (int i = 1; i < 5; i++)
		close(fd[i]);
}
