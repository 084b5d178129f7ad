#include "perfabi.h"

#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

/*
 * f67b15037a7a: modify_user_hw_breakpoint() validated a new setting by
 * building it into the breakpoint's own arch info (bp->hw.info); when the
 * check failed it put back only the attr fields and re-enabled the
 * breakpoint, which now carried the refused address: a user watchpoint on
 * a kernel address (CVE-2018-1000199: a crash). Since the fix the setting
 * is parsed into a copy and the breakpoint is left as it was.
 *
 * A tracer arms a write watchpoint on `watched` (DR0, DR7), then writes
 * a kernel address into DR0 while it is enabled: refused with EINVAL (a
 * ptrace breakpoint excludes the kernel). DR0 still reads `watched` (it
 * reads the arch info's address) and the tracee's write to `watched`
 * still stops it, once, right after the store.
 */
#if defined(__x86_64__)
#define VALUE		0x0ddba11c0ffee000ULL
#define KERNEL_ADDR	0xffffffff81000000UL

static volatile uint64_t watched __attribute__((aligned(8)));
static volatile uint64_t scratch __attribute__((aligned(8)));

static void write_watched(void)
{
	pa_store_u64_ip_after(&watched, VALUE);
}
#endif

PERFABI_CASE(
	.assertion = "x86: a refused write to DR0 (PTRACE_POKEUSER u_debugreg[0] of a kernel address) fails with EINVAL and leaves the enabled watchpoint as it was: DR0 reads the old address, DR7 its old value, and the tracee's write to the old address stops it once with SIGTRAP (TRAP_HWBKPT) right after the store",
	.ref = "\"perf/hwbp: Simplify the perf-hwbp code, fix documentation\" f67b15037a7a (4.16, CVE-2018-1000199): kernel/events/hw_breakpoint.c modify_user_hw_breakpoint_check() parses into a local arch_hw_breakpoint and copies it only on success; arch/x86/kernel/ptrace.c ptrace_set_breakpoint_addr(), ptrace_get_debugreg() (DR0 = bp->hw.info.address)",
	.covers = "type.BREAKPOINT attr.bp_addr errno.EINVAL",
	.fix = { .commit = "f67b15037a7a", .subject = "perf/hwbp: Simplify the perf-hwbp code, fix documentation", .release = "4.16", .cve = "CVE-2018-1000199" },
	/* without the fix the breakpoint is re-armed on the kernel address */
	.destructive = true,
	.pmu = "breakpoint",
	.xfail = {
		/* modify_user_hw_breakpoint() restoring only the attr
		 * (44234adcdce3): the oldest code with the bug */
		.from = "2.6.33",
		.to = "4.16",
		.why = "a failed modify_user_hw_breakpoint() left the refused address in bp->hw.info and re-enabled the breakpoint with it",
		.fix = "f67b15037a7a",
	},
	.timeout = 40,	/* the 10 s bounded waits report before the harness does */
) {
#if !defined(__x86_64__)
	pa_skip("u_debugreg and DR7 are x86's (checked on x86-64)");
#else
	uint64_t ip_after;
	pid_t child;

	ip_after = pa_store_u64_ip_after(&scratch, 0);	/* same code in the tracee */
	ASSERT_NE(ip_after, 0);
	child = pa_tracee_start(write_watched);

	if (EXPECT_OK(pa_tracee_debugreg_set(child, 0, (unsigned long)&watched)) < 0 ||
	    EXPECT_OK(pa_tracee_debugreg_set(child, 7, PA_DR7_WATCH0_8)) < 0)
		goto out;
	EXPECT_ERRNO(pa_tracee_debugreg_set(child, 0, KERNEL_ADDR), EINVAL);
	EXPECT_EQ(pa_tracee_debugreg_get(child, 0), (unsigned long)&watched);
	EXPECT_EQ(pa_tracee_debugreg_get(child, 7), PA_DR7_WATCH0_8);
	if (!pa_tracee_cont_until(child, SIGTRAP, "after the write to the watched word"))
		goto out;
	pa_tracee_expect_hwbkpt_at(child, ip_after);
	pa_tracee_expect_word(child, (const void *)&watched, VALUE);
	if (!pa_tracee_cont_until(child, 0, "after the trapped write"))
		goto out;
	return;
out:
	pa_tracee_kill(child);
#endif
}
