// SPDX-License-Identifier: GPL-2.0
/*
 * What the machine says of its hardware PMU, for the hw/ cases that check
 * exact values: whether it counts exactly (an emulator counting each
 * retired instruction: QEMU with -icount shift=0 and one vCPU, declared by
 * the VM runner as perfabi.pmu=exact on the guest's command line, which
 * the guest's init turns into PERFABI_PMU_EXACT=1), and how many counters
 * it has (the kernel's own boot report, "hw perfevents: enabled with ...
 * N counters available", which arm64's PMU drivers print; passed as
 * PERFABI_PMU_COUNTERS, or set by hand elsewhere). Neither is guessed
 * from what the counters show: a case that needs one and lacks it SKIPs.
 */
#include "internal.h"


bool pa_pmu_exact(void)
{
	const char *e = getenv("PERFABI_PMU_EXACT");

	return e && !strcmp(e, "1");
}

void pa_need_exact_pmu(void)
{
	if (!pa_pmu_exact())
		pa_skip("exact counts need a PMU that counts every retired instruction "
			"(QEMU -icount shift=0, one vCPU; PERFABI_PMU_EXACT=1): a real "
			"PMU's counts carry skid and interrupts");
}

int pa_pmu_counters(void)
{
	const char *e = getenv("PERFABI_PMU_COUNTERS");
	char *end;
	long n;

	if (!e || !*e)
		return 0;
	n = strtol(e, &end, 10);
	return (*end || n < 1 || n > 64) ? 0 : (int)n;
}

int pa_need_pmu_counters(void)
{
	int n = pa_pmu_counters();

	if (!n)
		pa_skip("the number of hardware counters is not known here: "
			"PERFABI_PMU_COUNTERS (the guest's init sets it from the "
			"kernel's \"N counters available\" boot line)");
	return n;
}

uint64_t pa_hw_loop_delta(int fd, uint64_t k)
{
	uint64_t one, two;

	ASSERT_LT(k, 1ULL << 30);	/* pa_count_over() passes an int */
	pa_loop3(1);	/* fault the loop in; SKIP where there is no loop */
	one = pa_count_over(fd, pa_loop3_int, (int)k);
	two = pa_count_over(fd, pa_loop3_int, (int)(2 * k));
	pa_diag("%llu counted over %llu iterations, %llu over %llu",
		(unsigned long long)one, (unsigned long long)k,
		(unsigned long long)two, (unsigned long long)(2 * k));
	return two - one;
}
