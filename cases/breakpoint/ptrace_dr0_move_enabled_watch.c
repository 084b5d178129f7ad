#include "perfabi.h"

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

/*
 * A tracer arms a write watchpoint on `before` (DR0, then DR7 = L0 | RW0
 * write | LEN0 8 bytes) and then, while it is enabled, writes a new address
 * into DR0: ptrace_set_breakpoint_addr() modifies the existing breakpoint
 * (modify_user_hw_breakpoint(): disable, new bp_addr, enable). The tracee
 * writes `before`, then `after`: only the second write stops it, once, with
 * SIGTRAP at the instruction after that store, B0 in DR6 and both values
 * already written.
 */
#if defined(__x86_64__)
#define VALUE_BEFORE	0x0b5e55ed0b5e55edULL
#define VALUE_AFTER	0x5a17c0de0badf00dULL
/* DR6 in architectural polarity: the reserved-as-1 bits (DR6_RESERVED of
 * <asm/debugreg.h>) set, and of the status bits only B0 */
#define DR6_RESERVED	0xffff0ff0UL
#define DR6_B0		0x1UL

#ifndef TRAP_HWBKPT
#define TRAP_HWBKPT 4
#endif

static volatile uint64_t before __attribute__((aligned(8)));
static volatile uint64_t after __attribute__((aligned(8)));
static volatile uint64_t scratch __attribute__((aligned(8)));

/* in the tracee: the old address, then the new one */
static void writes(void)
{
	before = VALUE_BEFORE;
	pa_store_u64_ip_after(&after, VALUE_AFTER);
}
#endif

PERFABI_CASE(
	.assertion = "x86: writing a new address into DR0 (PTRACE_POKEUSER u_debugreg[0]) while DR7 enables it moves the tracee's watchpoint: a write to the old address no longer stops the tracee, one write to the new address stops it once with SIGTRAP (TRAP_HWBKPT) at the instruction after that store, DR6 showing B0 alone",
	.ref = "arch/x86/kernel/ptrace.c ptrace_set_breakpoint_addr() (an existing breakpoint: modify_user_hw_breakpoint() with the new bp_addr), ptrace_get_debugreg() (DR0 reads the breakpoint's address; DR6 virtual_dr6 ^ DR6_RESERVED: f4956cf83ed1, 5.10); kernel/events/hw_breakpoint.c modify_user_hw_breakpoint() (perf_event_disable(), modify_user_hw_breakpoint_check(), perf_event_enable()); arch/x86/kernel/traps.c exc_debug_user()",
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

	child = pa_tracee_start(writes);

	if (EXPECT_OK(pa_tracee_debugreg_set(child, 0, (unsigned long)&before)) < 0 ||
	    EXPECT_OK(pa_tracee_debugreg_set(child, 7, PA_DR7_WATCH0_8)) < 0)
		goto out;
	EXPECT_EQ(pa_tracee_debugreg_get(child, 0), (unsigned long)&before);
	/* the move, with the watchpoint enabled */
	if (EXPECT_OK(pa_tracee_debugreg_set(child, 0, (unsigned long)&after)) < 0)
		goto out;
	EXPECT_EQ(pa_tracee_debugreg_get(child, 0), (unsigned long)&after);
	EXPECT_EQ(pa_tracee_debugreg_get(child, 7), PA_DR7_WATCH0_8);

	if (!pa_tracee_cont_until(child, SIGTRAP, "after the two writes"))
		goto out;
	pa_tracee_expect_hwbkpt_at(child, ip_after);
	/* the write to the old address went by; the trap came after the
	 * store to the new one */
	pa_tracee_expect_word(child, (const void *)&before, VALUE_BEFORE);
	pa_tracee_expect_word(child, (const void *)&after, VALUE_AFTER);
	EXPECT_EQ(pa_tracee_debugreg_get(child, 6), DR6_RESERVED | DR6_B0);

	/* the SIGTRAP suppressed: the tracee runs to its exit, no other stop */
	if (!pa_tracee_cont_until(child, 0, "after the trapped write"))
		goto out;
	return;
out:
	pa_tracee_kill(child);
#endif
}
