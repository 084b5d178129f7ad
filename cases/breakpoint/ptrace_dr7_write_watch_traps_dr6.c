#include "perfabi.h"

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

/*
 * A tracer arms a write watchpoint in its tracee the way debuggers do: the
 * address into DR0, then DR7 = L0 | RW0 write | LEN0 8 bytes. The kernel
 * turns these into a perf breakpoint of the tracee (ptrace_set_debugreg():
 * an inactive breakpoint for DR0, ptrace_write_dr7() enabling it through
 * modify_user_hw_breakpoint()). The tracee's one write stops it once with
 * SIGTRAP (TRAP_HWBKPT, si_addr and rip the instruction after the store,
 * x86 data breakpoints being traps) and DR6 reads B0 alone.
 */
#if defined(__x86_64__)
#define VALUE		0x5a17c0de0badf00dULL
/* DR6 in architectural polarity: the reserved-as-1 bits (DR6_RESERVED of
 * <asm/debugreg.h>) set, and of the status bits only B0 */
#define DR6_RESERVED	0xffff0ff0UL
#define DR6_B0		0x1UL

#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT 4
#endif

static volatile uint64_t target __attribute__((aligned(8)));
static volatile uint64_t scratch __attribute__((aligned(8)));

/* in the tracee: the one watched write */
static void write_target(void)
{
	pa_store_u64_ip_after(&target, VALUE);
}
#endif

PERFABI_CASE(
	.assertion = "x86: a write watchpoint a tracer sets with PTRACE_POKEUSER (DR0 = address, then DR7 enabling slot 0 for 8-byte writes) stops the tracee once per write with SIGTRAP, si_code TRAP_HWBKPT, si_addr and rip the instruction after the store, and DR6 (PTRACE_PEEKUSER u_debugreg[6]) showing B0 alone",
	.ref = "arch/x86/kernel/ptrace.c ptrace_set_debugreg(), ptrace_write_dr7(), ptrace_triggered() (virtual_dr6 |= DR_TRAP0 << i), ptrace_get_debugreg() (virtual_dr6 ^ DR6_RESERVED: f4956cf83ed1, 5.10); arch/x86/kernel/traps.c exc_debug_user() -> send_sigtrap(get_si_code()); kernel/events/hw_breakpoint.c register_user_hw_breakpoint(), modify_user_hw_breakpoint()",
	.covers = "type.BREAKPOINT",
	.min_kernel = "5.10",
	.pmu = "breakpoint",
	.timeout = 40,	/* the 10 s bounded waits report before the harness does */
	.features = "bp-trap",
) {
#if !defined(__x86_64__)
	pa_skip("u_debugreg, DR6 and DR7 are x86's (checked on x86-64)");
#else
	uint64_t ip_after;
	pid_t child;

	/* the same code at the same address in the forked tracee */
	ip_after = pa_store_u64_ip_after(&scratch, 0);
	ASSERT_NE(ip_after, 0);

	child = pa_tracee_start(write_target);

	if (EXPECT_OK(pa_tracee_debugreg_set(child, 0, (unsigned long)&target)) < 0 ||
	    EXPECT_OK(pa_tracee_debugreg_set(child, 7, PA_DR7_WATCH0_8)) < 0)
		goto out;
	EXPECT_EQ(pa_tracee_debugreg_get(child, 0), (unsigned long)&target);
	EXPECT_EQ(pa_tracee_debugreg_get(child, 7), PA_DR7_WATCH0_8);

	if (!pa_tracee_cont_until(child, SIGTRAP, "after the watched write"))
		goto out;
	pa_tracee_expect_hwbkpt_at(child, ip_after);
	/* a trap: the store is done when the tracee stops */
	pa_tracee_expect_word(child, (const void *)&target, VALUE);
	EXPECT_EQ(pa_tracee_debugreg_get(child, 6), DR6_RESERVED | DR6_B0);

	/* the SIGTRAP suppressed: the tracee runs to its exit, no other stop */
	if (!pa_tracee_cont_until(child, 0, "after the one write"))
		goto out;
	return;
out:
	pa_tracee_kill(child);
#endif
}
