#include "perfabi.h"

#include <signal.h>
#include <sys/ioctl.h>
#include <ucontext.h>

/*
 * No x86 code raises PERF_COUNT_SW_ALIGNMENT_FAULTS: the architectures that
 * count it (arm compat tasks, mips, sh, sparc, powerpc, riscv, loongarch,
 * arc) do so in the code that fixes up an unaligned access in software. x86
 * performs unaligned accesses in hardware, and where user space asks for
 * alignment checking (EFLAGS.AC with CR0.AM, which Linux sets) the kernel
 * answers the #AC with SIGBUS (exc_alignment_check() -> do_trap()) and does
 * not count it either. The workload makes both kinds: 8-byte loads and
 * stores at every misalignment, across a cache line and a page boundary,
 * and loads with EFLAGS.AC set, each of which faults where the CPU checks
 * alignment; the SIGBUS handler clears AC in the saved flags and the load
 * is retried. The count stays 0.
 */
#define ROUNDS 64

#if defined(__x86_64__)
static volatile sig_atomic_t bus_errors;

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	/* this handler runs with AC still set: aligned accesses only */
	uc->uc_mcontext.gregs[REG_EFL] &= ~0x40000LL;
	bus_errors++;
}

static uint64_t checked_load(const void *p)
{
	uint64_t v;

	/* below the red zone; AC on, one unaligned load, AC off */
	__asm__ __volatile__("sub $128, %%rsp\n\t"
			     "pushfq\n\t"
			     "orq $0x40000, (%%rsp)\n\t"
			     "popfq\n\t"
			     "movq (%1), %0\n\t"
			     "pushfq\n\t"
			     "andq $~0x40000, (%%rsp)\n\t"
			     "popfq\n\t"
			     "add $128, %%rsp"
			     : "=&r"(v) : "r"(p) : "memory", "cc");
	return v;
}

static void unaligned_work(int rounds)
{
	long psz = sysconf(_SC_PAGESIZE);
	unsigned char *buf = aligned_alloc((size_t)psz, 2 * (size_t)psz);
	struct sigaction sa, old;
	uint64_t sum = 0;

	if (!buf) {
		pa_fail("aligned_alloc of two pages failed");
		pa_abort();
	}
	memset(buf, 0x5a, 2 * (size_t)psz);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGBUS, &sa, &old);
	for (int r = 0; r < rounds; r++) {
		for (int off = 1; off < 8; off++) {
			/* inside a line, across a line, across the page */
			unsigned char *at[3] = { buf + 64 + off, buf + 128 - 4 + off % 4,
						 buf + psz - 4 + off % 4 };

			for (int i = 0; i < 3; i++) {
				volatile uint64_t *q = (volatile uint64_t *)(void *)at[i];

				*q = *q + 1;
				sum += checked_load(at[i]);
			}
		}
	}
	sigaction(SIGBUS, &old, NULL);
	free(buf);
	pa_diag("%d unaligned loads with EFLAGS.AC set, %d raised #AC (SIGBUS); "
		"checksum %llx", rounds * 21, (int)bus_errors, (unsigned long long)sum);
}
#endif

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_ALIGNMENT_FAULTS opens as a counting event; on x86 "
		     "no code raises it (unaligned accesses are done in hardware, and an "
		     "alignment-check #AC is answered with SIGBUS, uncounted), so over "
		     "1344 unaligned loads and stores and 1344 alignment-checked "
		     "unaligned loads it counts 0",
	.ref = "perf_event_open(2), PERF_TYPE_SOFTWARE: PERF_COUNT_SW_ALIGNMENT_FAULTS "
	       "\"These happen when unaligned memory accesses happen; the kernel can "
	       "handle these but it reduces performance. This only happens on some "
	       "architectures (never on x86).\"; arch/x86 has no PERF_COUNT_SW_ALIGNMENT_FAULTS "
	       "call site; arch/x86/kernel/traps.c exc_alignment_check()",
	.covers = "sw.ALIGNMENT_FAULTS attr.config",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_ALIGNMENT_FAULTS);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
#if defined(__x86_64__)
	uint64_t n;

	unaligned_work(1);	/* fault in the code and the handler first */
	bus_errors = 0;
	n = pa_count_over(fd, unaligned_work, ROUNDS);
	EXPECT_EQ(n, 0);
#else
	close(fd);
	pa_skip("PERF_COUNT_SW_ALIGNMENT_FAULTS is counted by this architecture's "
		"unaligned-access fixup code: no documented value to check here");
#endif
}
