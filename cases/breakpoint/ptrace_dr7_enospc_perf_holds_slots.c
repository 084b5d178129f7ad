#include "perfabi.h"

/*
 * perf_event_open(2) breakpoints and the ones a tracer makes through the x86
 * debug registers share the task's 4 slots. With 4 pinned perf breakpoints
 * on the tracee, a DR7 write that enables slot 0 (a new breakpoint:
 * ptrace_write_dr7() -> ptrace_register_breakpoint() ->
 * register_user_hw_breakpoint()) finds no slot: PTRACE_POKEUSER fails with
 * ENOSPC and DR7 keeps its old value (0). After one perf breakpoint is
 * closed, the same write succeeds, reads back, and now holds that slot: the
 * perf breakpoint no longer reopens (ENOSPC).
 */
#if defined(__x86_64__)
#define DR7_ARM		(PA_DR7_L0 | PA_DR7_RW0_W)	/* LEN0 0: 1 byte */
#define SLOTS		4

static volatile uint64_t vars[SLOTS];

/* a pinned write breakpoint of task pid on vars[i]: its fd, or -1 (errno) */
static int open_bp(pid_t pid, int i)
{
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&vars[i],
					      HW_BREAKPOINT_LEN_8);

	a.pinned = 1;
	return pa_perf_open(&a, pid, -1, -1, 0);
}
#endif

PERFABI_CASE(
	.assertion = "x86: while perf_event_open() breakpoints hold all 4 breakpoint slots of a traced task, a tracer's DR7 write enabling a debug register fails with ENOSPC and leaves DR7 unchanged; once one perf breakpoint is closed the same write succeeds and takes that slot",
	.ref = "arch/x86/kernel/ptrace.c ptrace_write_dr7() (a new breakpoint: ptrace_register_breakpoint(); on error the old DR7 is restored and the error returned), ptrace_set_debugreg() (ptrace_dr7 set only on success); kernel/events/hw_breakpoint.c register_user_hw_breakpoint() -> __reserve_bp_slot() -> -ENOSPC (same in 6.1 and 6.12); perf_event_open(2), ENOSPC",
	.alone = true,
	.covers = "type.BREAKPOINT errno.ENOSPC arg.pid",
	.pmu = "breakpoint",
	.timeout = 40,	/* the 10 s bounded waits report before the harness does */
	.probe = pa_probe_self_perf,
) {
#if !defined(__x86_64__)
	pa_skip("DR7 and the 4 debug register slots are x86's (checked on x86-64)");
#else
	int fd[SLOTS], n, extra;
	pid_t child;

	child = pa_tracee_start(NULL);

	for (n = 0; n < SLOTS; n++) {
		fd[n] = open_bp(child, n);
		if (fd[n] < 0)
			break;
	}
	if (n < SLOTS) {
		int err = errno, got = n;

		while (n-- > 0)
			close(fd[n]);
		if (err == ENOSPC) {
			pa_tracee_kill(child);
			pa_bp_enospc("only %d of x86's 4 breakpoint slots were free to the new tracee", got);
		}
		pa_fail("perf breakpoint on the tracee: perf_event_open() failed with %s",
			pa_errno_name(err));
		goto out;
	}

	/* all 4 slots are perf's: enabling slot 0 needs a fifth */
	EXPECT_EQ(pa_tracee_debugreg_get(child, 7), 0UL);
	EXPECT_ERRNO(pa_tracee_debugreg_set(child, 7, DR7_ARM), ENOSPC);
	EXPECT_EQ(pa_tracee_debugreg_get(child, 7), 0UL);

	close(fd[SLOTS - 1]);
	if (EXPECT_OK(pa_tracee_debugreg_set(child, 7, DR7_ARM)) >= 0) {
		EXPECT_EQ(pa_tracee_debugreg_get(child, 7), DR7_ARM);
		/* the tracer's breakpoint now holds the freed slot */
		extra = open_bp(child, SLOTS - 1);
		if (extra >= 0) {
			pa_fail("a perf breakpoint reopened with DR7 enabling slot 0: expected ENOSPC");
			close(extra);
		} else {
			EXPECT_EQ(errno, ENOSPC);
		}
	}
	for (n = 0; n < SLOTS - 1; n++)
		close(fd[n]);
out:
	pa_tracee_kill(child);
#endif
}
