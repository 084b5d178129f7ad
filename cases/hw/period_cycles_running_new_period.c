#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_PERIOD on an enabled, running cycle-counter sampler. The
 * ioctl runs __perf_event_period() on the event's CPU (6.1 and 6.12 alike):
 * hw.sample_period = NEW, pmu->stop(PERF_EF_UPDATE), period_left = 0,
 * pmu->start(PERF_EF_RELOAD); armpmu_start() -> armpmu_event_set_period()
 * finds left = 0 <= 0, so left = NEW and last_period = NEW: the next
 * overflow comes NEW counted events after the ioctl and every later one
 * NEW after the previous; nothing counted before carries over and there
 * is no overflow at once (perf_swevent_set_period()'s rule for the
 * software classes, pa_period_old_once(), does not apply).
 *
 * A user-only PERF_COUNT_HW_CPU_CYCLES sampler, OLD = 120M (never reached
 * here), 0.75 NEW user instructions before the ioctl, NEW = 1.2M. Under
 * QEMU -icount shift=0 (PERFABI_PMU_EXACT) the counts are exact and the
 * overflow interrupt in time, so with the few tens of user instructions of
 * the ioctl path far below every margin:
 *	after the ioctl	samples	a wrong kernel
 *	0.5 NEW		0	period counted from the enable: 1 (at 0.25 NEW);
 *				an overflow at once: 1
 *	1.5 NEW		1	old period kept: 0
 *	3.5 NEW		3
 * Each sample's PERF_SAMPLE_PERIOD is NEW, and the PERF_SAMPLE_READ values
 * of consecutive samples differ by exactly NEW (the reload from
 * period_left; every overflow in the loop has the same skid under icount).
 */
#define OLD	120000000ULL
#define NEW	1200000ULL
#define PRE	(NEW / 4)	/* pa_hws_loop3() iterations: 0.75 NEW */
#define L_A	(NEW / 6)	/* 0.5 NEW */
#define L_B	(NEW / 3)	/* +1 NEW */
#define L_C	(2 * NEW / 3)	/* +2 NEW */

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD 1.2M on an enabled, running user-only PERF_COUNT_HW_CPU_CYCLES sampler (old period 120M, "
		     "0.75 new periods before the ioctl) starts the new period at the ioctl: 0 samples 0.5 periods after it, 1 after 1.5, "
		     "3 after 3.5, each with PERF_SAMPLE_PERIOD 1.2M and READ values exactly 1.2M apart (exact PMU)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD: \"Since Linux 3.7 (on ARM) and Linux 3.14 (all other architectures), the new "
	       "period takes effect immediately\"; kernel/events/core.c __perf_event_period() (pmu->stop, period_left = 0, "
	       "pmu->start(PERF_EF_RELOAD)); drivers/perf/arm_pmu.c armpmu_start(), armpmu_event_set_period()",
	.covers = "hw.CPU_CYCLES ioctl.PERIOD attr.sample_period sample.PERIOD sample.READ type.HARDWARE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	uint64_t period = NEW, rec, head[4], c, prev = 0;
	int fd, samples = 0, throttled = 0;
	struct pa_sample s;
	struct pa_ring r;

	pa_hws_need();
	a = pa_hws_attr(OLD, PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ);
	rec = pa_sample_size(&a, NULL);
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	pa_hws_loop3(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_hws_loop3(PRE);
	head[0] = pa_ring_head(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	pa_hws_loop3(L_A);
	head[1] = pa_ring_head(&r);
	pa_hws_loop3(L_B);
	head[2] = pa_ring_head(&r);
	pa_hws_loop3(L_C);
	head[3] = pa_ring_head(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	c = pa_hws_count(fd);

	while (pa_hw_next_sample(&r, &a, &s, &throttled)) {
		samples++;
		pa_diag("sample %d: period %llu, value %llu", samples, (unsigned long long)s.period,
			(unsigned long long)s.read[3]);
		EXPECT_EQ(s.period, NEW);
		if (samples > 1)
			EXPECT_EQ(s.read[3] - prev, NEW);
		prev = s.read[3];
	}
	pa_diag("count %llu; data_head %llu %llu %llu %llu (%llu-byte samples); %d samples", (unsigned long long)c,
		(unsigned long long)head[0], (unsigned long long)head[1], (unsigned long long)head[2],
		(unsigned long long)head[3], (unsigned long long)rec, samples);
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(NEW));

	EXPECT_EQ(head[0], 0);			/* the old period: nothing */
	EXPECT_EQ(head[1], 0);			/* no overflow at once */
	EXPECT_EQ(head[2], 1 * rec);		/* NEW after the ioctl */
	EXPECT_EQ(head[3], 3 * rec);		/* and every NEW after it */
	EXPECT_EQ(samples, 3);
	pa_ring_unmap(&r);
	close(fd);
}
