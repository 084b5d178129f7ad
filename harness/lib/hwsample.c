// SPDX-License-Identifier: GPL-2.0
/*
 * The exact cycle-counter rig of the hw/ sampling and overflow cases.
 *
 * Under QEMU's -icount shift=0 with one vCPU (PERFABI_PMU_EXACT=1) every
 * retired instruction advances the virtual clock by 1 ns, and PMCCNTR
 * counts that clock: a user-only PERF_COUNT_HW_CPU_CYCLES event (PMCCFILTR
 * excluding EL1) counts exactly the user instructions retired. The arm64
 * driver gives CPU_CYCLES the dedicated cycle counter when it is free
 * (armv8pmu_get_event_idx()), and QEMU raises its overflow interrupt from
 * a virtual-clock timer that icount ends the translation block at, so the
 * interrupt is taken in time; a general counter's overflow is seen only
 * at the next kernel entry (../shared/research/arm64-pmu.md).
 *
 * A run of (2m + 1) half periods then crosses exactly m overflows: the
 * arch reload (armpmu_event_set_period()) writes -left, so the k-th
 * overflow comes at exactly k * period counted instructions, and the
 * count at the DISABLE is (m + 1/2) periods plus the few user instructions
 * of the ENABLE return and the DISABLE call, far from a period boundary.
 */
#include "internal.h"

#include <sys/ioctl.h>

/* the loop, at a known place: three instructions an iteration, the last
 * a branch back taken on every iteration but the last. The labels are
 * global: a GOT load of two local labels of one section can share one
 * slot (section + addend), which made both bounds the loop's start. */
#if defined(__aarch64__)
__asm__(".text\n"
	".p2align 4\n"
	".globl pa_hws_loop3\n"
	".globl pa_hws_loop_begin\n"
	".globl pa_hws_loop_end\n"
	".type pa_hws_loop3, %function\n"
	"pa_hws_loop3:\n"
	"pa_hws_loop_begin:\n"
	"1:	subs x0, x0, #1\n"
	"	nop\n"
	"	b.ne 1b\n"
	"pa_hws_loop_end:\n"
	"	ret\n"
	".size pa_hws_loop3, . - pa_hws_loop3\n");
#define HWS_LOOP 1
#elif defined(__x86_64__)
__asm__(".text\n"
	".p2align 4\n"
	".globl pa_hws_loop3\n"
	".globl pa_hws_loop_begin\n"
	".globl pa_hws_loop_end\n"
	".type pa_hws_loop3, @function\n"
	"pa_hws_loop3:\n"
	"pa_hws_loop_begin:\n"
	"1:	dec %rdi\n"
	"	nop\n"
	"	jnz 1b\n"
	"pa_hws_loop_end:\n"
	"	ret\n"
	".size pa_hws_loop3, . - pa_hws_loop3\n");
#define HWS_LOOP 1
#endif

#ifdef HWS_LOOP
extern const char pa_hws_loop_begin[], pa_hws_loop_end[];
#else
void pa_hws_loop3(uint64_t k)
{
	(void)k;
	pa_skip("no loop of known instruction count for this architecture");
}
#endif

bool pa_hws_ip_in_loop(uint64_t ip)
{
#ifdef HWS_LOOP
	return ip >= (uintptr_t)pa_hws_loop_begin && ip < (uintptr_t)pa_hws_loop_end;
#else
	(void)ip;
	return false;
#endif
}

void pa_hws_need(void)
{
#ifndef HWS_LOOP
	pa_skip("no loop of known instruction count for this architecture");
#endif
	pa_need_exact_pmu();
}

struct perf_event_attr pa_hws_attr(uint64_t period, uint64_t sample_type)
{
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_CPU_CYCLES);

	a.type = PERF_TYPE_HARDWARE;
	a.sample_period = period;
	a.sample_type = sample_type;
	a.read_format = PA_HW_GROUP_FMT;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	return a;
}

void pa_hws_run_halves(int fd, uint64_t period, uint64_t halves)
{
	if (period % 6) {
		pa_fail("period %llu is not a multiple of 6", (unsigned long long)period);
		pa_abort();
	}
	pa_hws_loop3(1);	/* fault the loop in */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_hws_loop3(halves * (period / 6));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
}

uint64_t pa_hws_count(int fd)
{
	uint64_t c;

	pa_hw_read_group(fd, &c, 1, true);
	return c;
}

void pa_hws_expect_overflows(const char *what, uint64_t seen, uint64_t c, uint64_t period, uint64_t m)
{
	pa_diag("%s: %llu; count %llu = %llu periods + %llu", what, (unsigned long long)seen,
		(unsigned long long)c, (unsigned long long)(c / period), (unsigned long long)(c % period));
	EXPECT_EQ(c / period, m);	/* the loop's (m + 1/2) periods and a short path */
	EXPECT_EQ(seen, m);
}
