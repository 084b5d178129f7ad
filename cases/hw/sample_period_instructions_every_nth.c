#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * sample_period N on a hardware event: one sample every N counted events,
 * exactly. PERF_COUNT_HW_INSTRUCTIONS in user space (exclude_kernel),
 * sample_period P, sample_type PERF_SAMPLE_READ (read_format a group of
 * one: nr, time_enabled, time_running, value). The arch reload
 * (x86_perf_event_set_period(); armpmu_event_set_period() on arm64) writes
 * -left into the counter, left = period_left, and each counter read
 * (x86_perf_event_update(), armpmu_event_update()) takes the delta off
 * period_left; at an overflow left <= 0 becomes left + P. So the k-th
 * overflow comes when the count reaches exactly k * P, whatever the skid
 * of the previous ones, and the PMI handler reads the counter (count =
 * k * P + the user instructions retired between the overflow and the
 * interrupt) before perf_event_overflow() writes the sample, whose READ
 * value is that count (perf_output_read_group(): perf_event_count()).
 *
 * The skid rule: the overflow interrupt (an NMI on x86; the PMU interrupt
 * on arm64, never masked in user space) is taken within 1000 cycles of
 * the overflow, and pa_loop3() retires at most 3 instructions a cycle:
 * SKID = 3072 instructions. So sample k reads [k * P, k * P + SKID]; a
 * reload that restarted the period at the interrupt (dropping the skid)
 * drifts by the sum of the skids and leaves that window.
 *
 * The count c read after the DISABLE holds floor(c / P) overflows. Each
 * was sampled, except an overflow within the last SKID instructions before
 * the DISABLE, whose interrupt may find the counter already stopped
 * (handle_pmi_common() skips a counter no longer in active_mask): so
 * exactly floor(c / P) samples when c mod P > SKID (the loop leaves
 * c mod P near 998 000), else that or one less.
 *
 * P is a multiple of 64 (bdw_limit_period() clears the low 6 bits of
 * INST_RETIRED.ALL's period; the generic event is not that one, but then
 * no model's limit_period can move the overflows). Rate: pa_loop3() runs
 * at most 3 instructions a cycle, so at most 18 overflows fall in a
 * 1 ms tick at 6 GHz: a throttle is only possible where
 * perf_event_max_sample_rate has fallen to 18000 or less
 * (pa_throttled_in_burst(18)). A multiplexed counter SKIPs.
 */
#define P	1000064ULL	/* sample_period: 15626 * 64 */
#define LOOP	10000000ULL	/* pa_loop3() iterations: 30M instructions */
#define SKID	3072ULL
#define BURST	18

PERFABI_CASE(
	.assertion = "a PERF_COUNT_HW_INSTRUCTIONS sampler with sample_period 1000064 samples every 1000064th user instruction: over a "
		     "30M-instruction loop the ring holds exactly floor(count / period) samples (one less only for an overflow in the last "
		     "3072 instructions), and sample k's PERF_SAMPLE_READ value lies in [k * period, k * period + 3072]",
	.ref = "perf_event_open(2), sample_period: \"A \\\"sampling\\\" event is one that generates an overflow notification every N events, "
	       "where N is given by sample_period\"; PERF_SAMPLE_READ; arch/x86/events/core.c x86_perf_event_set_period(), "
	       "x86_perf_event_update(), x86_pmu_handle_irq(); drivers/perf/arm_pmu.c armpmu_event_set_period(); kernel/events/core.c "
	       "perf_output_read_group()",
	.covers = "attr.sample_period sample.READ type.HARDWARE hw.INSTRUCTIONS read_format.GROUP",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	int fd, samples = 0, throttled = 0;
	uint64_t c, f, rem;
	struct pa_sample s;
	struct pa_ring r;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	a.type = PERF_TYPE_HARDWARE;
	a.sample_period = P;
	a.sample_type = PERF_SAMPLE_READ;
	a.read_format = PA_HW_GROUP_FMT;
	a.disabled = 1;
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 2);
	pa_ring_prefault(&r);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(LOOP);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(fd, &c, 1, true);

	while (pa_hw_next_sample(&r, &a, &s, &throttled)) {
		uint64_t k, v;

		k = (uint64_t)++samples;
		EXPECT_EQ(s.read[0], 1);	/* nr: the event alone */
		v = s.read[3];
		if (v < k * P || v > k * P + SKID)
			pa_fail("sample %llu reads %llu: not within [%llu, %llu] (%lld from k * period)",
				(unsigned long long)k, (unsigned long long)v, (unsigned long long)(k * P),
				(unsigned long long)(k * P + SKID), (long long)(v - k * P));
	}
	f = c / P;
	rem = c % P;
	pa_diag("count %llu = %llu periods + %llu; %d samples, %d throttle records", (unsigned long long)c,
		(unsigned long long)f, (unsigned long long)rem, samples, throttled);
	if (throttled)
		pa_throttled_in_burst(BURST);

	EXPECT_GE(c, 3 * LOOP);			/* the loop at least */
	if (rem > SKID)
		EXPECT_EQ((uint64_t)samples, f);
	else {
		EXPECT_LE((uint64_t)samples, f);
		EXPECT_GE((uint64_t)samples + 1, f);
	}
	pa_ring_unmap(&r);
	close(fd);
}
