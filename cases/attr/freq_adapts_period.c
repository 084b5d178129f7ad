#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * With freq set, sample_freq is a rate in samples per second, not an event
 * count: the kernel starts at period 1 and raises the period towards the
 * requested rate at each overflow (__perf_event_overflow ->
 * perf_adjust_period). Asking 1 sample a second while making 256 page
 * faults as fast as possible yields a handful of samples, where a period of
 * 1 (the same number with freq clear) yields one per fault.
 *
 * The kernel adapts at an overflow only where perf_clock() moved by
 * 0 < dt < 2 ticks since the last; a clock held still (a guest whose tick
 * the host holds back) leaves the period 1, rightly. The samples' times
 * say which it was (pa_freq_try_verdict(), harness/lib/freq.c): where the
 * clock gave the chance, at most 2 samples follow; where it never did in
 * 3 tries, the case SKIPs.
 */
#define FAULTS	256
#define MOST	64	/* fewer samples than this: the period adapted */

static bool freq_try(void *arg)
{
	struct perf_event_attr f = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr p = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring rf, rp;
	int ff, fp, np;
	bool verdict;

	(void)arg;
	f.freq = 1;
	f.sample_freq = 1;
	f.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	p.sample_type = PERF_SAMPLE_IP;
	f.disabled = p.disabled = 1;
	ff = ASSERT_OPEN(&f, 0, -1, -1, 0);
	fp = ASSERT_OPEN(&p, 0, -1, -1, 0);
	pa_ring_map(&rf, ff, 16);
	pa_ring_map(&rp, fp, 16);
	ASSERT_OK(ioctl(ff, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(fp, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(FAULTS);
	ASSERT_OK(ioctl(ff, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fp, PERF_EVENT_IOC_DISABLE, 0));
	verdict = pa_freq_try_verdict(&rf, &f, MOST);
	np = pa_ring_count(&rp, PERF_RECORD_SAMPLE);
	pa_diag("period 1: %d samples", np);
	EXPECT_GE(np, FAULTS);
	pa_ring_unmap(&rf);
	pa_ring_unmap(&rp);
	close(ff);
	close(fp);
	return verdict;
}

PERFABI_CASE(
	.assertion = "attr.freq: sample_freq = 1 is read as one sample per second and the kernel adjusts the period, so 256 fast page faults give a first sample of PERF_SAMPLE_PERIOD 1 and at most 2 after two overflows < 1 ms apart (under 64 where the clock never gave those), where freq clear and sample_period = 1 give >= 256",
	.ref = "perf_event_open(2), freq: \"If this bit is set, then sample_frequency not sample_period is used when setting up the sampling interval\"; kernel/events/core.c __perf_event_overflow() perf_adjust_period()",
	.covers = "attr.freq attr.sample_freq",
	/* the period adapts on an overflow only when perf_clock() moved
	 * since the last one (kernel/events/core.c __perf_event_overflow():
	 * delta > 0 && delta < 2 * TICK_NSEC); 256 faults take less than a
	 * tick, so a tick-grained clock never adapts it */
	.features = "hrtimer",
	.probe = pa_probe_self_perf,
) {
	pa_freq_expect_adapts(freq_try, NULL, FAULTS, "faults");
}
