// SPDX-License-Identifier: GPL-2.0
/*
 * A child traced by this process, for the cases that set breakpoints
 * through ptrace (the x86 debug registers). Its own file: it fails and
 * skips the case, which the runner must not pull in.
 */
#include "internal.h"

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#if defined(__x86_64__)
#include <sys/user.h>
#endif

#define PA_TRACEE_REFUSED	3	/* the child's exit status: TRACEME failed */

bool pa_tracee_wait(pid_t pid, int timeout_ms, int *status)
{
	for (int i = 0; i < timeout_ms; i++) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r != 0)
			return r == pid;
		usleep(1000);
	}
	return false;
}

void pa_tracee_kill(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	pa_tracee_wait(pid, PA_TRACEE_WAIT_MS, &st);
}

pid_t pa_tracee_start(void (*fn)(void))
{
	pid_t child;
	int st;

	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(PA_TRACEE_REFUSED);
		raise(SIGSTOP);
		if (fn)
			fn();
		_exit(0);
	}
	if (!pa_tracee_wait(child, PA_TRACEE_WAIT_MS, &st)) {
		pa_fail("the tracee did not stop within 10 s");
		pa_tracee_kill(child);
		pa_abort();
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == PA_TRACEE_REFUSED)
		pa_skip("PTRACE_TRACEME is refused here (Yama ptrace_scope 3, or seccomp)");
	if (!(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP)) {
		pa_fail("the tracee's first stop: wait status %#x, expected SIGSTOP", st);
		pa_tracee_kill(child);
		pa_abort();
	}
	return child;
}

#if defined(__x86_64__)
#define DEBUGREG(n) ((void *)offsetof(struct user, u_debugreg[n]))

unsigned long pa_tracee_debugreg_get(pid_t pid, int n)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, pid, DEBUGREG(n), NULL);
	if (v == -1 && errno)
		pa_fail("PTRACE_PEEKUSER u_debugreg[%d]: %s", n, pa_errno_name(errno));
	return (unsigned long)v;
}

long pa_tracee_debugreg_set(pid_t pid, int n, unsigned long value)
{
	return ptrace(PTRACE_POKEUSER, pid, DEBUGREG(n), (void *)value);
}
#endif

bool pa_tracee_cont_until(pid_t pid, int stopsig, const char *after)
{
	int st;

	if (EXPECT_OK(ptrace(PTRACE_CONT, pid, NULL, NULL)) < 0)
		return false;
	if (!pa_tracee_wait(pid, PA_TRACEE_WAIT_MS, &st)) {
		pa_fail("the tracee did not %s within %d s %s",
			stopsig ? "stop" : "exit", PA_TRACEE_WAIT_MS / 1000, after);
		return false;
	}
	if (stopsig && !(WIFSTOPPED(st) && WSTOPSIG(st) == stopsig)) {
		pa_fail("%s: wait status %#x, expected a stop by signal %d", after, st, stopsig);
		return false;
	}
	if (!stopsig) {
		if (!WIFEXITED(st)) {
			pa_fail("%s: wait status %#x, expected exit 0 with no other stop", after, st);
			return false;
		}
		EXPECT_EQ(WEXITSTATUS(st), 0);
	}
	return true;
}

void pa_tracee_expect_word(pid_t pid, const void *addr, uint64_t value)
{
	long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKDATA, pid, (void *)addr, NULL);
	EXPECT_EQ(errno, 0);
	EXPECT_EQ((uint64_t)word, value);
}

#if defined(__x86_64__)
void pa_tracee_expect_hwbkpt_at(pid_t pid, uint64_t ip)
{
	struct user_regs_struct regs;
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (EXPECT_OK(ptrace(PTRACE_GETSIGINFO, pid, NULL, &si)) >= 0) {
		EXPECT_EQ(si.si_signo, SIGTRAP);
		EXPECT_EQ(si.si_code, TRAP_HWBKPT);
		EXPECT_EQ((uint64_t)(uintptr_t)si.si_addr, ip);
	}
	if (EXPECT_OK(ptrace(PTRACE_GETREGS, pid, NULL, &regs)) >= 0)
		EXPECT_EQ((uint64_t)regs.rip, ip);
}
#endif

