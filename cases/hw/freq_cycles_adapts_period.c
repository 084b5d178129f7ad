#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * freq on a hardware event: PERF_COUNT_HW_CPU_CYCLES in user space with
 * freq = 1 and sample_freq F = 1000, over 300 ms of this thread's CPU time.
 *
 * perf_event_alloc() starts a freq event at sample_period 1 (last_period
 * 1, period_left 1), so the first overflow reports PERF_SAMPLE_PERIOD 1:
 * x86_pmu_handle_irq() (and handle_pmi_common()) puts the last_period of
 * the reload it just did in the sample, armv8pmu_handle_irq() that of the
 * period just ended, and before the first adjustment both are 1. Then each
 * overflow (__perf_event_account_interrupt(): perf_clock() moved less than
 * two ticks since the last) and each tick (perf_adjust_freq_unthr_events(),
 * TICK_NSEC) runs perf_adjust_period(): the period the event's rate over
 * that time would need for F samples a second, approached an eighth of the
 * way each time (the low-pass filter). Its fixed point is the event's rate
 * times 1/F: over the run, T = count / (time_running * F). The rate of
 * cycles is the CPU's clock, which frequency scaling moves by less than a
 * factor of 2 over a busy run, and a few hundred adjustments leave
 * (7/8)^n of the start: the last sample's period lies in [T/2, 2T].
 *
 * Each sample but the last reports a period the counter then (x86) or
 * before (arm64) counted in full, and a period restarted without an
 * overflow (period_left reset, a skid beyond a whole period, a throttle)
 * only drops counted events from the sum: the periods of all samples but
 * the last sum to at most the count.
 *
 * The last period is where the clock shows: the kernel's tick-path
 * adjustment takes each tick to be TICK_NSEC apart, and a tick that comes
 * late (a busy host stalling the vCPU; QEMU's virtual timer under icount)
 * turns several ticks' counts into one tick's rate. One late tick moves
 * one run's last period, never every run's: the bound is tried up to
 * TRIES times, and FAILs only when every run is outside it (with each
 * run's values); the first period and the sum are checked in every run.
 *
 * The starting period of 1 is a storm of interrupts until the filter
 * raises it, so a PERF_RECORD_THROTTLE may come: it is allowed, and only
 * stops the counter until the next tick. A multiplexed counter SKIPs; so
 * does a kernel.perf_event_max_sample_rate below F (the open fails).
 */
#define F	1000
#define WORK_MS	300
#define TRIES	3

/* One run: the checks every run must pass, and whether the last period
 * lay within [T/2, 2T] (the values into seen otherwise) */
static bool adapts_once(char *seen, size_t len)
{
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_CPU_CYCLES);
	const struct perf_event_header *h;
	uint64_t c, b[4], first = 0, last = 0, sum = 0, t;
	int fd, samples = 0, throttled = 0, lost = 0;
	struct pa_sample s;
	struct pa_ring r;
	bool within;

	a.type = PERF_TYPE_HARDWARE;
	a.freq = 1;
	a.sample_freq = F;
	a.sample_type = PERF_SAMPLE_PERIOD;
	a.read_format = PA_HW_GROUP_FMT;
	a.disabled = 1;
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 16);
	pa_ring_prefault(&r);
	pa_work_cpu_ms(5);		/* fault in the code and stack first */

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(WORK_MS);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(fd, &c, 1, true);
	pa_read_u64(fd, b, 4);		/* nr, time_enabled, time_running, count */

	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE) {
			throttled++;
			continue;
		}
		if (h->type == PERF_RECORD_LOST) {
			lost++;
			continue;
		}
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("unexpected record type %u", h->type);
			continue;
		}
		if (!pa_sample_parse(&a, h, &s))
			pa_abort();
		if (!samples++)
			first = s.period;
		sum += last;		/* all but the last */
		last = s.period;
	}
	ASSERT_TRUE(b[2] > 0);
	t = (uint64_t)((long double)c * 1e9L / ((long double)b[2] * F));
	pa_diag("count %llu over %llu ns running: T %llu; %d samples, first period %llu, last %llu, sum but the last %llu; "
		"%d throttle records, %d LOST records", (unsigned long long)c, (unsigned long long)b[2], (unsigned long long)t,
		samples, (unsigned long long)first, (unsigned long long)last, (unsigned long long)sum, throttled, lost);

	ASSERT_TRUE(samples >= 2);
	EXPECT_EQ(first, 1);			/* perf_event_alloc(): period 1 */
	EXPECT_LE(sum, c);			/* periods are counted events */
	within = last >= t / 2 && last <= 2 * t;	/* adapted to the rate */
	if (!within)
		snprintf(seen, len, "last period %llu outside [%llu, %llu] (T %llu)", (unsigned long long)last,
			 (unsigned long long)(t / 2), (unsigned long long)(2 * t), (unsigned long long)t);
	pa_ring_unmap(&r);
	close(fd);
	return within;
}

PERFABI_CASE(
	.assertion = "a PERF_COUNT_HW_CPU_CYCLES sampler with freq = 1, sample_freq = 1000 adapts its period: over 300 ms of CPU the "
		     "first sample's PERF_SAMPLE_PERIOD is 1, the periods of the samples but the last sum to at most the count, and the last "
		     "sample's period lies within a factor 2 of count / (time_running * sample_freq)",
	.ref = "perf_event_open(2), freq: \"If this bit is set, then sample_frequency not sample_period is used when setting up the "
	       "sampling interval\"; sample_freq: \"The kernel will adjust the sampling period to try and achieve the desired rate\"; "
	       "kernel/events/core.c perf_event_alloc() (hw.sample_period = 1), __perf_event_account_interrupt(), "
	       "perf_adjust_freq_unthr_events(), perf_adjust_period(); arch/x86/events/core.c x86_pmu_handle_irq()",
	.covers = "attr.freq attr.sample_freq sample.PERIOD type.HARDWARE hw.CPU_CYCLES",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	long rate = pa_sysctl_long("kernel/perf_event_max_sample_rate");
	char seen[TRIES][160];
	int i;

	if (rate >= 0 && rate < F)
		pa_skip("kernel.perf_event_max_sample_rate is %ld, below sample_freq %d", rate, F);
	for (i = 0; i < TRIES; i++)
		if (adapts_once(seen[i], sizeof(seen[i])))
			break;
	if (i == TRIES)
		pa_fail("in every one of %d runs: %s; %s; %s", TRIES, seen[0], seen[1], seen[2]);
	else
		EXPECT_LT(i, TRIES);	/* run i adapted */
}
