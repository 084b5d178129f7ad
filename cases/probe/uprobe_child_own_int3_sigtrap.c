#include "perfabi.h"

#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <ucontext.h>

/*
 * While a uprobe is installed in a process (MMF_HAS_UPROBES), every int3
 * trap of that process, and of a child forked from it (uprobe_dup_mmap()
 * copies the flag and sets MMF_RECALC_UPROBES), goes to the uprobe code
 * first (uprobe_pre_sstep_notifier(), then handle_swbp() on the way back
 * to user space). A trap at an address with no uprobe must come out as the
 * plain int3 SIGTRAP: find_active_uprobe_rcu() finds none there, reads the
 * int3 back (is_trap_at_addr()) and handle_swbp() sends SIGTRAP, with the
 * instruction pointer after the int3, as do_int3_user() does without
 * uprobes (force_sig(): si_code SI_KERNEL, no address).
 */

#define N_BEFORE	3	/* parent, before the fork */
#define N_CHILD		2	/* the child, after its trap */
#define N_AFTER		2	/* parent, after the child exited */

__attribute__((noinline)) void pa_uprobe_int3_target_fn(void);
__attribute__((noinline)) void pa_uprobe_int3_target_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static __attribute__((unused)) void call_n(int n)
{
	for (int i = 0; i < n; i++)
		pa_uprobe_int3_target_fn();
}

/* what the child saw, sent to the parent through a pipe */
struct trap_seen {
	int traps;		/* SIGTRAPs taken */
	int signo, code, errno_;
	uint64_t addr, pid;	/* si_addr, si_pid */
	uint64_t rip;		/* user ip in the handler */
	uint64_t after;		/* the address right after our int3 */
};

static volatile struct trap_seen seen;

#if defined(__x86_64__)
static void on_trap(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;

	if (seen.traps++)
		return;
	seen.signo = sig;
	seen.code = si->si_code;
	seen.errno_ = si->si_errno;
	seen.addr = (uint64_t)(uintptr_t)si->si_addr;
	seen.pid = (uint64_t)si->si_pid;
	seen.rip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
}

static __attribute__((noreturn)) void child(int wfd)
{
	struct sigaction sa;
	uint64_t after;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGTRAP, &sa, NULL))
		_exit(90);
	/* an int3 of our own, at no probed address */
	__asm__ volatile("leaq 1f(%%rip), %0\n\tint3\n1:" : "=r"(after) :: "memory");
	seen.after = after;
	call_n(N_CHILD);		/* the inherited probe copy: not counted */
	if (write(wfd, (const void *)&seen, sizeof(seen)) != (ssize_t)sizeof(seen))
		_exit(91);
	_exit(0);
}
#endif

PERFABI_CASE(
	.assertion = "in a process with a uprobe installed (an open uprobe PMU event on the own task), a forked child's own int3 at an address with no uprobe raises exactly one SIGTRAP as without uprobes (si_code SI_KERNEL, si_addr 0, the handler's ip right after the int3), and the child then runs on; the event counts exactly the parent's own calls of the probed function",
	.ref = "kernel/events/uprobes.c handle_swbp(): \"No matching uprobe; signal SIGTRAP.\" (find_active_uprobe_rcu() -> is_trap_at_addr(), mmf_recalc_uprobes() for a child's MMF_RECALC_UPROBES), uprobe_dup_mmap(); arch/x86/kernel/traps.c do_int3_user() (force_sig(SIGTRAP)); sigaction(2) SI_KERNEL",
	.covers = "type.dynamic attr.uprobe_path attr.probe_offset",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.probe = pa_probe_priv,
) {
#if defined(__x86_64__)
	long off = pa_self_sym_offset("pa_uprobe_int3_target_fn");
	struct perf_event_attr a = pa_uprobe_attr((uint64_t)(uintptr_t)pa_self_exe(), (uint64_t)off);
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct trap_seen got;
	int fd, p[2], st;
	ssize_t n;
	pid_t pid;

	if (want)
		pa_skip("the uprobe PMU is not open to this identity (%s, %s)",
			pa_errno_name(want), pa_context_string());
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(pipe(p));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	call_n(N_BEFORE);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(p[0]);
		child(p[1]);
	}
	close(p[1]);
	n = read(p[0], &got, sizeof(got));
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	call_n(N_AFTER);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	if (!WIFEXITED(st) || WEXITSTATUS(st))
		pa_fail("the child did not exit 0: status 0x%x", st);
	ASSERT_EQ(n, (ssize_t)sizeof(got));
	EXPECT_EQ(got.traps, 1);
	EXPECT_EQ(got.signo, SIGTRAP);
	EXPECT_EQ(got.code, SI_KERNEL);
	EXPECT_EQ(got.errno_, 0);
	EXPECT_EQ(got.addr, 0);
	EXPECT_EQ(got.pid, 0);
	EXPECT_NE(got.after, 0);
	EXPECT_EQ(got.rip, got.after);
	EXPECT_EQ(pa_read_one(fd), N_BEFORE + N_AFTER);
	close(p[0]);
	close(fd);
#else
	pa_skip("the int3 trap this checks is x86-64's");
#endif
}
