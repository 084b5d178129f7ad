#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations */

/*
 * exclude_user and exclude_kernel split one count by mode: with neither
 * bit the counter counts at EL0 and EL1, with exclude_kernel at EL0 only,
 * with exclude_user at EL1 only (armv8pmu_set_event_filter():
 * ARMV8_PMU_EXCLUDE_EL1 / _EL0 in the counter's PMEVTYPER; exclude_hv,
 * set on all three, keeps EL2 out where there is one).
 *
 * The three PERF_COUNT_HW_INSTRUCTIONS events in one group count over the
 * same intervals (group_sched_in(); on arm64 all start and stop with the
 * PMU's global enable). On a PMU that counts every instruction (QEMU
 * -icount shift=0), each instruction retires at exactly one exception
 * level, so the user + kernel count equals the user count plus the kernel
 * count exactly, interrupts and all; the kernel count is not 0 (the rest
 * of the ENABLE and the start of the DISABLE ioctl run with the group
 * counting) and the user count grows by exactly 3K with K more iterations.
 * Counting the kernel needs perf_event_paranoid < 2 or CAP_PERFMON: where
 * the rules refuse it (pa_expected_errno(PA_NEED_KERNEL)), SKIP.
 */
static int open_mode(int lead, bool exclude_user, bool exclude_kernel)
{
	struct perf_event_attr a = pa_hw_attr(PERF_COUNT_HW_INSTRUCTIONS);

	a.disabled = lead < 0;
	a.exclude_user = exclude_user;
	a.exclude_kernel = exclude_kernel;
	a.read_format = PA_HW_GROUP_FMT;
	return pa_hw_open_attr(&a, 0, -1, lead);
}

PERFABI_CASE(
	.assertion = "exclude_user and exclude_kernel split a PERF_COUNT_HW_INSTRUCTIONS count by mode: in one group, the "
		     "event counting both modes counts exactly the user-only event's count plus the kernel-only event's, the "
		     "kernel-only count is above 0, and K more loop iterations add exactly 3K to the user-only count, on a PMU "
		     "that counts every instruction",
	.ref = "perf_event_open(2), exclude_user, exclude_kernel; drivers/perf/arm_pmuv3.c armv8pmu_set_event_filter(); "
	       "kernel/events/core.c group_sched_in()",
	.covers = "attr.exclude_user attr.exclude_kernel hw.INSTRUCTIONS",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t a[3], b[3];
	int all, user, kern, want = pa_expected_errno(PA_NEED_KERNEL);

	pa_need_exact_pmu();
	if (want)
		pa_skip("counting the kernel is refused here (%s at perf_event_paranoid %d)", pa_errno_name(want),
			pa_paranoid());
	pa_loop3(1);
	all = open_mode(-1, false, false);
	user = open_mode(all, false, true);
	kern = open_mode(all, true, false);
	pa_hw_group_loop(all, 1, a, 3);		/* the path once before */
	pa_hw_group_loop(all, K, a, 3);
	pa_hw_group_loop(all, 2 * K, b, 3);
	pa_diag("both modes, user, kernel: %llu %llu %llu over %llu iterations, %llu %llu %llu over %llu",
		(unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)a[2], (unsigned long long)K,
		(unsigned long long)b[0], (unsigned long long)b[1], (unsigned long long)b[2], (unsigned long long)(2 * K));
	EXPECT_EQ(a[0], a[1] + a[2]);
	EXPECT_EQ(b[0], b[1] + b[2]);
	EXPECT_GT(a[2], 0);
	EXPECT_EQ(b[1] - a[1], 3 * K);
	close(kern);
	close(user);
	close(all);
}
