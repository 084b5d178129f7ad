#include "perfabi.h"

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#define PTRACE_REGS 2	/* debug registers the tracer sets */

static volatile uint64_t vars[8];

/* Open a write breakpoint on vars[i] in task pid: its fd, or -1 (errno). */
static __attribute__((unused)) int open_bp(pid_t pid, int i)
{
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&vars[i],
					      HW_BREAKPOINT_LEN_8);

	a.pinned = 1;
	return pa_perf_open(&a, pid, -1, -1, 0);
}

PERFABI_CASE(
	.assertion = "x86: debug registers a tracer sets with PTRACE_POKEUSER (u_debugreg[0..3]) take breakpoint slots of the traced task: after k addresses are written, exactly 4 - k perf breakpoints open on that task and the next fails with ENOSPC",
	.ref = "arch/x86/kernel/ptrace.c ptrace_set_breakpoint_addr() (a DR0-3 address registers an inactive perf breakpoint: ptrace_register_breakpoint()); kernel/events/hw_breakpoint.c __reserve_bp_slot() -> -ENOSPC; perf_event_open(2), ENOSPC",
	.alone = true,
	.covers = "type.BREAKPOINT errno.ENOSPC arg.pid",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
#if !defined(__x86_64__)
	pa_skip("u_debugreg and the 4 debug register slots are x86's (checked on x86-64)");
#else
	int fd[5], st, n;
	pid_t child;

	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(3);
		raise(SIGSTOP);
		_exit(0);
	}
	ASSERT_EQ(waitpid(child, &st, 0), child);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 3)
		pa_skip("PTRACE_TRACEME is refused here (Yama ptrace_scope 3, or seccomp)");
	ASSERT_TRUE(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP);

	/* first: all 4 slots of the child are free to perf */
	for (n = 0; n < 4; n++) {
		fd[n] = open_bp(child, n);
		if (fd[n] < 0)
			break;
	}
	if (n < 4 && errno == ENOSPC) {
		int got = n;

		kill(child, SIGKILL);
		waitpid(child, &st, 0);
		pa_bp_enospc("only %d of x86's 4 breakpoint slots were free to the new child, before any debug register was written", got);
	}
	if (n < 4) {
		pa_fail("breakpoint %d of 4 on the child: perf_event_open() failed with %s",
			n + 1, pa_errno_name(errno));
		kill(child, SIGKILL);
		pa_abort();
	}
	while (n-- > 0)
		close(fd[n]);

	/* the tracer writes k addresses: each becomes a breakpoint of the
	 * child (inactive: DR7 is left 0), holding a slot */
	for (int i = 0; i < PTRACE_REGS; i++)
		ASSERT_OK(ptrace(PTRACE_POKEUSER, child,
				 (void *)offsetof(struct user, u_debugreg[i]),
				 (void *)&vars[4 + i]));
	for (n = 0; n < 4 - PTRACE_REGS; n++) {
		fd[n] = open_bp(child, n);
		if (fd[n] < 0) {
			pa_fail("perf breakpoint %d of the %d left free by %d ptrace debug registers: failed with %s",
				n + 1, 4 - PTRACE_REGS, PTRACE_REGS, pa_errno_name(errno));
			break;
		}
	}
	if (n == 4 - PTRACE_REGS) {
		int extra = open_bp(child, n);

		if (extra >= 0) {
			pa_fail("perf breakpoint %d opened with %d slots held by ptrace: expected ENOSPC",
				n + 1, PTRACE_REGS);
			close(extra);
		} else {
			EXPECT_EQ(errno, ENOSPC);
		}
	}
	while (n-- > 0)
		close(fd[n]);
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
#endif
}
