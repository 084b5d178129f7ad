#include "perfabi.h"

#include <setjmp.h>
#include <signal.h>

/*
 * No x86 code raises PERF_COUNT_SW_EMULATION_FAULTS: the architectures that
 * count it (arm and arm64 compat tasks, mips, sh, sparc, powerpc, loongarch)
 * do so where they emulate an instruction. x86 does emulate some: with
 * User-Mode Instruction Prevention on (a CPU with UMIP and
 * CONFIG_X86_UMIP), SMSW and SGDT in user mode raise #GP and
 * fixup_umip_exception() emulates them with dummy results, without counting
 * anything. Without UMIP the CPU runs them itself. Kernels before 5.10
 * emulated them for 32-bit tasks only and send this 64-bit task SIGSEGV,
 * which the workload catches and skips. In every case the count stays 0.
 */
#define ROUNDS 64

#if defined(__x86_64__)
static sigjmp_buf env;
static volatile int segv;

static void on_sigsegv(int sig)
{
	(void)sig;
	siglongjmp(env, 1);
}

static void umip_work(int rounds)
{
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) gdt;
	struct sigaction sa, old;
	volatile int i;
	unsigned int msw;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigsegv;
	sigaction(SIGSEGV, &sa, &old);
	for (i = 0; i < rounds; i++) {
		if (sigsetjmp(env, 1)) {
			segv++;
			continue;
		}
		__asm__ __volatile__("smsw %0" : "=r"(msw));
		__asm__ __volatile__("sgdt %0" : "=m"(gdt));
	}
	sigaction(SIGSEGV, &old, NULL);
}

static bool cpu_has_umip(void)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "flags", 5) && strstr(line, " umip");
	if (f)
		fclose(f);
	return found;
}
#endif

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_EMULATION_FAULTS opens as a counting event; on x86 "
		     "no code raises it, not even the kernel's emulation of "
		     "UMIP-protected instructions: over 64 SMSW and 64 SGDT in user "
		     "mode it counts 0",
	.ref = "perf_event_open(2), PERF_TYPE_SOFTWARE: PERF_COUNT_SW_EMULATION_FAULTS "
	       "\"The kernel sometimes traps on unimplemented instructions and "
	       "emulates them for userspace\"; arch/x86 has no "
	       "PERF_COUNT_SW_EMULATION_FAULTS call site; arch/x86/kernel/umip.c "
	       "fixup_umip_exception()",
	.covers = "sw.EMULATION_FAULTS attr.config",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_EMULATION_FAULTS);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
#if defined(__x86_64__)
	uint64_t n;

	umip_work(1);	/* fault in the code first */
	segv = 0;
	n = pa_count_over(fd, umip_work, ROUNDS);
	pa_diag("CPU %s UMIP; %d of %d rounds ended in SIGSEGV (not emulated)",
		cpu_has_umip() ? "with" : "without", segv, ROUNDS);
	EXPECT_EQ(n, 0);
#else
	close(fd);
	pa_skip("PERF_COUNT_SW_EMULATION_FAULTS is counted by this architecture's "
		"instruction emulation: no documented value to check here");
#endif
}
