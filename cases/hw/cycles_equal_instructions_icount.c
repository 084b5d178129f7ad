#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations */

/*
 * PERF_COUNT_HW_CPU_CYCLES and PERF_COUNT_HW_INSTRUCTIONS in one group
 * count over exactly the same intervals: the group is scheduled as a unit
 * (group_sched_in()), and on arm64 every counter of it starts and stops
 * with the PMU's global enable (armpmu_disable()/armpmu_enable() around
 * pmu->add, PMCR_EL0.E), the cycles on the dedicated cycle counter and the
 * instructions on a general one (armv8pmu_get_event_idx()).
 *
 * The equality is QEMU's, not the architecture's: under -icount shift=0
 * its virtual clock advances one nanosecond per retired instruction and
 * its cycle counter runs at 1 GHz of that clock, so one instruction is one
 * cycle, both filtered to EL0 alike. On silicon cycles and instructions
 * differ (IPC != 1): there PERFABI_PMU_EXACT is unset and the case SKIPs.
 * Both are also checked to add exactly 3 per loop iteration
 * (count(2K) - count(K) == 3K).
 */
PERFABI_CASE(
	.assertion = "in one group, user-space PERF_COUNT_HW_CPU_CYCLES and PERF_COUNT_HW_INSTRUCTIONS count over the same "
		     "intervals: on a PMU whose clock advances one cycle per instruction (QEMU -icount shift=0) the two "
		     "values are equal exactly, and K more iterations of a 3-instruction loop add exactly 3K to each",
	.ref = "perf_event_open(2), PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_INSTRUCTIONS, group_fd; kernel/events/core.c "
	       "group_sched_in(); drivers/perf/arm_pmuv3.c armv8pmu_get_event_idx() (the cycle counter); QEMU target/arm "
	       "PMU under -icount (1 instruction = 1 ns = 1 cycle)",
	.covers = "hw.CPU_CYCLES hw.INSTRUCTIONS attr.exclude_kernel",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t a[2], b[2];
	int cyc, ins;

	pa_need_exact_pmu();
	pa_loop3(1);
	cyc = pa_hw_open_member(PERF_COUNT_HW_CPU_CYCLES, -1, PA_HW_GROUP_FMT);
	ins = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, cyc, PA_HW_GROUP_FMT);
	pa_hw_group_loop(cyc, 1, a, 2);		/* the path once before */
	pa_hw_group_loop(cyc, K, a, 2);
	pa_hw_group_loop(cyc, 2 * K, b, 2);
	pa_diag("cycles, instructions: %llu %llu over %llu iterations, %llu %llu over %llu",
		(unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)K,
		(unsigned long long)b[0], (unsigned long long)b[1], (unsigned long long)(2 * K));
	EXPECT_EQ(a[0], a[1]);
	EXPECT_EQ(b[0], b[1]);
	EXPECT_EQ(b[0] - a[0], 3 * K);
	EXPECT_EQ(b[1] - a[1], 3 * K);
	close(ins);
	close(cyc);
}
