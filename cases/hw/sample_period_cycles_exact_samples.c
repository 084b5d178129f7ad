#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * sample_period on the cycle counter, exactly. A user-only
 * PERF_COUNT_HW_CPU_CYCLES sampler with sample_period P over a loop of
 * 8.5 P user instructions: under QEMU -icount shift=0 with one vCPU
 * (PERFABI_PMU_EXACT) the cycle counter counts exactly the user
 * instructions, and the arm64 driver reloads it with -left at every
 * overflow (armpmu_event_set_period(): left = period_left + P after the
 * counter read of armpmu_event_update() took the counted events off), so
 * the k-th overflow comes at exactly k * P counted instructions.
 * armv8pmu_handle_irq() writes one sample per overflow
 * (perf_event_overflow() with perf_sample_data_init(..., last_period)), so
 * the ring holds exactly 8 samples: the count at the DISABLE is 8.5 P
 * plus the few user instructions of the ENABLE return and DISABLE call
 * (tens; the case checks count / P == 8 too), nowhere near a boundary.
 * Each sample's PERF_SAMPLE_PERIOD is last_period, the period just
 * ended: P.
 *
 * P = 1.2M instructions is 1.2 ms of icount virtual time: at most one
 * overflow a 1 ms tick, so a throttle is only possible where
 * perf_event_max_sample_rate has fallen to 1000 or less
 * (pa_throttled_in_burst()). Real hardware SKIPs: cycles are not
 * instructions there (hw/sample_period_instructions_every_nth bounds the
 * general case).
 */
#define P	1200000ULL	/* sample_period, a multiple of 6 */
#define M	8		/* overflows: a loop of 2M + 1 half periods */

PERFABI_CASE(
	.assertion = "a user-only PERF_COUNT_HW_CPU_CYCLES sampler with sample_period 1.2M over a loop of 8.5 periods of user "
		     "instructions writes exactly 8 samples, each with PERF_SAMPLE_PERIOD 1.2M (exact PMU: cycles == user instructions)",
	.ref = "perf_event_open(2), sample_period: \"A \\\"sampling\\\" event is one that generates an overflow notification every N "
	       "events, where N is given by sample_period\"; PERF_SAMPLE_PERIOD; drivers/perf/arm_pmu.c armpmu_event_set_period(), "
	       "armpmu_event_update(); drivers/perf/arm_pmuv3.c armv8pmu_handle_irq()",
	.covers = "attr.sample_period sample.PERIOD type.HARDWARE hw.CPU_CYCLES",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	int fd, samples = 0, throttled = 0;
	struct pa_sample s;
	struct pa_ring r;
	uint64_t c;

	pa_hws_need();
	a = pa_hws_attr(P, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD);
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	pa_hws_run_halves(fd, P, 2 * M + 1);
	c = pa_hws_count(fd);
	while (pa_hw_next_sample(&r, &a, &s, &throttled)) {
		samples++;
		pa_diag("sample %d: ip %#llx, period %llu", samples, (unsigned long long)s.ip,
			(unsigned long long)s.period);
		EXPECT_EQ(s.period, P);
	}
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));
	pa_hws_expect_overflows("samples", (uint64_t)samples, c, P, M);
	pa_ring_unmap(&r);
	close(fd);
}
