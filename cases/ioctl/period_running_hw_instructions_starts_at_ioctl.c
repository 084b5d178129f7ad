#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_PERIOD on an enabled, running hardware event. The ioctl
 * runs __perf_event_period() on the event's CPU: hw.sample_period = NEW,
 * pmu->stop(PERF_EF_UPDATE), period_left = 0, pmu->start(PERF_EF_RELOAD).
 * The reload (x86_perf_event_set_period(); armpmu_event_set_period() on
 * arm64) finds left = 0 <= 0, so left = NEW and last_period = NEW: the
 * next overflow comes NEW counted events after the ioctl, and every later
 * one NEW after the previous. Unlike the software classes there is no
 * immediate overflow (perf_swevent_set_period() overflows the next event
 * when period_left is 0) and no left-over of the old period; and nothing
 * counted before the ioctl carries over.
 *
 * Instructions in user space: OLD = 1e9 (never reached here), 18M before
 * the ioctl, NEW = 24M. Every check sits half a period from an overflow,
 * so skid and the few user instructions of the ioctl wrappers (tens) do
 * not matter:
 *	after the ioctl	expected	wrong kernels
 *	12M		0 samples	immediate overflow (sw-like): 1;
 *					period counted from the enable: 1 (at 6M)
 *	36M		1 sample	old period kept: 0
 *	84M		3 samples
 * Each sample's PERF_SAMPLE_PERIOD is NEW (the handlers' last_period).
 * P keeps overflows under 1000 a second on any CPU (pa_loop3() runs at
 * most one iteration, 3 instructions, a cycle): a throttle is only
 * possible where perf_event_max_sample_rate has fallen to 2000 or less
 * (pa_throttled_in_burst(2)). A multiplexed counter SKIPs.
 */
#define OLD	1000000000ULL
#define NEW	24000000ULL	/* a multiple of 64 */
#define PRE	6000000ULL	/* pa_loop3() iterations before the ioctl: 18M */
#define L_A	4000000ULL	/* 12M = NEW / 2 */
#define L_B	8000000ULL	/* +24M: 36M = 1.5 NEW */
#define L_C	16000000ULL	/* +48M: 84M = 3.5 NEW */

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on an enabled, running PERF_COUNT_HW_INSTRUCTIONS sampling event takes effect at once and the new "
		     "period starts at the ioctl: with the old period 1e9, 18M instructions before the ioctl and a new period of 24M, the "
		     "ring holds 0 samples 12M instructions after the ioctl, 1 after 36M, 3 after 84M, each with PERF_SAMPLE_PERIOD 24M",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PERIOD: \"Since Linux 3.7 (on ARM) and Linux 3.14 (all other architectures), the new period takes effect immediately\"; kernel/events/core.c "
	       "__perf_event_period() (pmu->stop, period_left = 0, pmu->start(PERF_EF_RELOAD)); arch/x86/events/core.c "
	       "x86_perf_event_set_period() (left <= 0: left += period, last_period = period)",
	.covers = "ioctl.PERIOD type.HARDWARE hw.INSTRUCTIONS attr.sample_period sample.PERIOD",
	.min_kernel = "3.14",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	uint64_t period = NEW, rec, head[4], c;
	int fd, samples = 0, throttled = 0;
	struct pa_sample s;
	struct pa_ring r;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	a.type = PERF_TYPE_HARDWARE;
	a.sample_period = OLD;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	a.read_format = PA_HW_GROUP_FMT;
	a.disabled = 1;
	rec = pa_sample_size(&a, NULL);
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(PRE);
	head[0] = pa_ring_head(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	pa_loop3(L_A);
	head[1] = pa_ring_head(&r);
	pa_loop3(L_B);
	head[2] = pa_ring_head(&r);
	pa_loop3(L_C);
	head[3] = pa_ring_head(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(fd, &c, 1, true);

	while (pa_hw_next_sample(&r, &a, &s, &throttled)) {
		EXPECT_EQ(s.period, NEW);
		samples++;
	}
	pa_diag("count %llu; data_head %llu %llu %llu %llu (%llu-byte samples); %d samples, %d throttle records",
		(unsigned long long)c, (unsigned long long)head[0], (unsigned long long)head[1],
		(unsigned long long)head[2], (unsigned long long)head[3], (unsigned long long)rec, samples, throttled);
	if (throttled)
		pa_throttled_in_burst(2);

	EXPECT_GE(c, 3 * (PRE + L_A + L_B + L_C));	/* the loops at least */
	EXPECT_EQ(head[0], 0);			/* the old period: nothing */
	EXPECT_EQ(head[1], 0);			/* no overflow at once */
	EXPECT_EQ(head[2], 1 * rec);		/* NEW after the ioctl */
	EXPECT_EQ(head[3], 3 * rec);		/* and every NEW after it */
	EXPECT_EQ(samples, 3);
	pa_ring_unmap(&r);
	close(fd);
}
