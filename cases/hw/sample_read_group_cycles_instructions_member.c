#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_SAMPLE_READ with PERF_FORMAT_GROUP on a hardware group: a user-only
 * PERF_COUNT_HW_CPU_CYCLES sampling leader (period P) and a user-only
 * PERF_COUNT_HW_INSTRUCTIONS member. At each overflow
 * armv8pmu_handle_irq() updates the leader's count and
 * perf_output_read_group() reads every sibling (pmu->read(),
 * armpmu_event_update()) into the sample: {nr 2, time_enabled,
 * time_running, leader, member}.
 *
 * Under QEMU -icount shift=0 with one vCPU (PERFABI_PMU_EXACT) both count
 * exactly the user instructions retired since the group's ENABLE, which
 * starts them together (the cycle counter and a general counter enabled in
 * one PMCNTENSET write by armv8pmu_start() after the group's add), so in
 * every sample the member equals the leader. The k-th overflow comes at
 * exactly k * P counted (armpmu_event_set_period() reloads -left from
 * period_left), and QEMU takes it with no skid: icount ends the
 * translation block at the deadline of the cycle counter's overflow timer,
 * so the interrupt is taken before the next user instruction (on silicon
 * the skid is tens to hundreds of instructions: SKIP there). So the k-th
 * sample reads exactly k * P, consecutive samples P apart. 8.5 periods:
 * exactly 8 samples.
 */
#define P	1200000ULL
#define M	8

PERFABI_CASE(
	.assertion = "in each sample of a user-only PERF_COUNT_HW_CPU_CYCLES sampling leader (period 1.2M) with PERF_SAMPLE_READ and "
		     "PERF_FORMAT_GROUP, the user-only PERF_COUNT_HW_INSTRUCTIONS member's value equals the leader's, consecutive samples' "
		     "values differ by exactly the period, and the k-th reads exactly k periods; 8 samples over 8.5 periods (exact PMU: "
		     "QEMU takes the cycle counter's overflow before the next instruction)",
	.ref = "perf_event_open(2), PERF_SAMPLE_READ, PERF_FORMAT_GROUP; kernel/events/core.c perf_output_read_group(); "
	       "drivers/perf/arm_pmu.c armpmu_event_set_period(), armpmu_event_update(); drivers/perf/arm_pmuv3.c armv8pmu_handle_irq()",
	.covers = "hw.CPU_CYCLES hw.INSTRUCTIONS sample.READ read_format.GROUP type.HARDWARE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	int fd, member, samples = 0, throttled = 0;
	uint64_t v[2], prev = 0;
	struct pa_sample s;
	struct pa_ring r;

	pa_hws_need();
	a = pa_hws_attr(P, PERF_SAMPLE_IP | PERF_SAMPLE_READ);
	fd = pa_hw_open_sampler(&a);
	member = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, fd, PA_HW_GROUP_FMT);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	pa_hws_run_halves(fd, P, 2 * M + 1);
	pa_hw_read_group(fd, v, 2, true);
	while (pa_hw_next_sample(&r, &a, &s, &throttled)) {
		uint64_t k = (uint64_t)++samples, lead = s.read[3], memb = s.read[4];

		pa_diag("sample %llu: nr %llu, leader %llu (%lld from k * P), member %llu", (unsigned long long)k,
			(unsigned long long)s.read[0], (unsigned long long)lead, (long long)(lead - k * P),
			(unsigned long long)memb);
		EXPECT_EQ(s.read[0], 2);
		EXPECT_EQ(memb, lead);
		if (k > 1)
			EXPECT_EQ(lead - prev, P);
		EXPECT_EQ(lead, k * P);
		prev = lead;
	}
	pa_diag("at the end: cycles %llu, instructions %llu", (unsigned long long)v[0], (unsigned long long)v[1]);
	EXPECT_EQ(v[1], v[0]);
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));
	pa_hws_expect_overflows("samples", (uint64_t)samples, v[0], P, M);
	pa_ring_unmap(&r);
	close(member);
	close(fd);
}
