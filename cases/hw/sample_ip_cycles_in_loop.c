#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_SAMPLE_IP of a cycle-counter overflow: the user instruction the
 * overflow interrupted. A user-only PERF_COUNT_HW_CPU_CYCLES sampler, period
 * P, over 8.5 P instructions of a three-instruction loop at a known place
 * (pa_hws_loop3(): subs, nop, b.ne). armv8pmu_handle_irq() takes the
 * interrupted registers (get_irq_regs()) and perf_prepare_sample() puts
 * perf_instruction_pointer(regs), the ELR of the interrupt: the next user
 * instruction to run. Under QEMU -icount shift=0 (PERFABI_PMU_EXACT) the
 * cycle counter's overflow is raised from a virtual-clock timer at which
 * icount ends the translation block, so the interrupt is taken at the
 * overflowing instruction, not at the next kernel entry (the general
 * counters' late overflow, ../shared/research/arm64-pmu.md, would put the
 * IP at a syscall). Every one of the 8 overflows falls inside the loop
 * (the ENABLE and DISABLE paths hold a few tens of the 10.2M instructions
 * counted, half a period from the nearest overflow), so all 8 IPs lie on
 * the loop's three instructions.
 *
 * Rate: one overflow per 1.2 ms of icount time (pa_throttled_in_burst()).
 * On silicon the skid of the interrupt can leave the loop: SKIP there.
 */
#define P	1200000ULL
#define M	8

PERFABI_CASE(
	.assertion = "each sample of a user-only PERF_COUNT_HW_CPU_CYCLES sampler (period 1.2M) over 8.5 periods of a three-instruction "
		     "loop has its PERF_SAMPLE_IP on one of the loop's instructions: 8 samples, 8 IPs in the loop (exact PMU)",
	.ref = "perf_event_open(2), PERF_SAMPLE_IP: \"Records instruction pointer\"; kernel/events/core.c perf_prepare_sample() "
	       "(perf_instruction_pointer()); drivers/perf/arm_pmuv3.c armv8pmu_handle_irq() (get_irq_regs())",
	.covers = "hw.CPU_CYCLES sample.IP type.HARDWARE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	int fd, samples = 0, inside = 0, throttled = 0;
	struct pa_sample s;
	struct pa_ring r;
	uint64_t c;

	pa_hws_need();
	a = pa_hws_attr(P, PERF_SAMPLE_IP);
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	pa_hws_run_halves(fd, P, 2 * M + 1);
	c = pa_hws_count(fd);
	while (pa_hw_next_sample(&r, &a, &s, &throttled)) {
		samples++;
		if (pa_hws_ip_in_loop(s.ip))
			inside++;
		else
			pa_fail("sample %d: ip %#llx is not in the loop", samples, (unsigned long long)s.ip);
	}
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));
	pa_hws_expect_overflows("samples", (uint64_t)samples, c, P, M);
	EXPECT_EQ(inside, M);
	pa_ring_unmap(&r);
	close(fd);
}
