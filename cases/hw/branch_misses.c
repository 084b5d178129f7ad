#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* loop iterations */

/*
 * Each of K iterations has a conditional branch on a pseudo-random bit, two
 * unconditional jumps and the loop's conditional branch: at least 3K
 * branches retire (x86 counts all 4K; Arm's PC_WRITE_RETIRED the taken
 * ones, about 3.5K), and no predictor does better than chance on the
 * random one, so about K/2 of them are mispredicted. In one group both
 * events count over exactly the same intervals: mispredicted branches are
 * at most the branches (even where the PMU counts speculative
 * mispredictions, Arm's BR_MIS_PRED or Intel's BR_MISP_EXEC workaround for
 * erratum AAJ80), and at least K/10.
 */

/* k bytes of pseudo-random 0 and 1 (the top bit of xorshift64*) */
static unsigned char *random_bits(uint64_t k)
{
	unsigned char *b = malloc(k);
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	if (!b) {
		pa_fail("cannot allocate %llu bytes", (unsigned long long)k);
		pa_abort();
	}
	for (uint64_t i = 0; i < k; i++) {
		x ^= x >> 12;
		x ^= x << 25;
		x ^= x >> 27;
		b[i] = (unsigned char)((x * 0x2545f4914f6cdd1dULL) >> 63);
	}
	return b;
}

/* k (>= 1) iterations of: a conditional branch on the next random bit
 * (taken half the time, at random), two unconditional jumps, and the
 * loop's conditional branch. Returns how many bits were 1. */
static uint64_t random_branches(const unsigned char *bits, uint64_t k)
{
	uint64_t n = 0;

#if defined(__x86_64__)
	__asm__ __volatile__("1:\n\t"
			     "movzbl (%[p]), %%eax\n\t"
			     "test %%eax, %%eax\n\t"
			     "jz 2f\n\t"
			     "inc %[n]\n"
			     "2:\n\t"
			     "jmp 3f\n"
			     "3:\n\t"
			     "jmp 4f\n"
			     "4:\n\t"
			     "inc %[p]\n\t"
			     "dec %[k]\n\t"
			     "jnz 1b"
			     : [p] "+r"(bits), [k] "+r"(k), [n] "+r"(n)
			     : : "rax", "cc", "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("1:\n\t"
			     "ldrb w9, [%[p]], #1\n\t"
			     "cbz w9, 2f\n\t"
			     "add %[n], %[n], #1\n"
			     "2:\n\t"
			     "b 3f\n"
			     "3:\n\t"
			     "b 4f\n"
			     "4:\n\t"
			     "subs %[k], %[k], #1\n\t"
			     "b.ne 1b"
			     : [p] "+r"(bits), [k] "+r"(k), [n] "+r"(n)
			     : : "x9", "cc", "memory");
#else
	(void)bits;
	(void)k;
	pa_skip("no branch loop written for this architecture");
#endif
	return n;
}

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_BRANCH_MISSES counts mispredicted branches: "
		     "over 1M iterations with one branch on a random bit among 4 "
		     "branches, counted in a group with "
		     "PERF_COUNT_HW_BRANCH_INSTRUCTIONS, it is at least 100000 and "
		     "at most the branch instructions",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_BRANCH_MISSES "
	       "\"Mispredicted branch instructions\", PERF_COUNT_HW_BRANCH_INSTRUCTIONS; "
	       "ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.BRANCH_MISSES type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int lead = pa_hw_open_member(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, -1, PA_HW_GROUP_FMT);
	int miss = pa_hw_open_member(PERF_COUNT_HW_BRANCH_MISSES, lead, PA_HW_GROUP_FMT);
	unsigned char *bits = random_bits(K);
	uint64_t v[2], ones;

	random_branches(bits, 1);	/* SKIP here where there is no such loop */
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	ones = random_branches(bits, K);
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(lead, v, 2, true);
	pa_diag("%llu branches, %llu mispredicted, over %llu iterations (%llu "
		"random branches taken one way)", (unsigned long long)v[0],
		(unsigned long long)v[1], (unsigned long long)K,
		(unsigned long long)ones);
	EXPECT_LE(v[1], v[0]);
	EXPECT_GE(v[1], K / 10);
	free(bits);
	close(miss);
	close(lead);
}
