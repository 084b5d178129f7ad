#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * exclude_idle is honoured by the cpu-clock hrtimer, which drops a sample
 * when the interrupted task is the idle task. A per-task event never runs
 * in the idle task, so with exclude_idle it samples like without:
 * two 1 ms cpu-clock samplers on this task that differ only in the bit, in
 * one group (their hrtimers are started and cancelled together), take
 * about the same number of samples. Each event has its own hrtimer,
 * cancelled at every sched-out and restarted with what was left of its
 * period, so the two drift apart by a few samples: 2 + 1/8 allowed, where
 * a sampler that dropped the samples of a running task would have few or
 * none. The task works in 100 ms steps of CPU time until the sampler
 * without the bit has taken at least 5 samples (100 a step with
 * high-resolution timers, one per tick without them: about 10 at HZ=100;
 * fewer where the host stalls a vCPU, as an expired hrtimer that is late
 * by many periods gives one sample); 2 s of CPU time without 5 samples is
 * a failure. A host that stalls the vCPU can also make the two drift
 * apart by more (each timer collapses its own late periods): up to 5
 * tries, the last one judged. A throttled sampler stops its timer until
 * the next tick, each on its own: a try where the kernel throttled either
 * (a PERF_RECORD_THROTTLE) does not compare. A 1 ms timer overflows at
 * most 1000/HZ + 1 times a tick, so only perf_event_max_sample_rate 2000
 * or less explains a throttle (else a FAIL: pa_throttle_check()); every
 * try throttled so is a SKIP.
 */

/* Samples in r; *throttled counts the PERF_RECORD_THROTTLE records. */
static int samples(struct pa_ring *r, int *throttled)
{
	const struct perf_event_header *h;
	int n = 0;

	while ((h = pa_ring_next(r))) {
		n += h->type == PERF_RECORD_SAMPLE;
		*throttled += h->type == PERF_RECORD_THROTTLE;
	}
	return n;
}
#define TRIES 5

/* One try: the two samplers over at least 100 ms of CPU time, until the
 * one without the bit has 5 samples (2 s at most); false if the kernel
 * throttled either. */
static bool measure(int *nx, int *nc)
{
	struct perf_event_attr x = pa_sw_sampling_attr(PERF_COUNT_SW_CPU_CLOCK, 1000000);
	struct perf_event_attr c = pa_sw_sampling_attr(PERF_COUNT_SW_CPU_CLOCK, 1000000);
	struct pa_ring rx, rc;
	int fx, fc, throttled = 0, ms = 0;

	*nx = *nc = 0;
	x.sample_type = c.sample_type = PERF_SAMPLE_IP;
	x.exclude_idle = 1;
	x.disabled = 1;		/* the leader */
	c.disabled = 0;		/* goes with it */
	fx = ASSERT_OPEN(&x, 0, -1, -1, 0);
	fc = ASSERT_OPEN(&c, 0, -1, fx, 0);
	pa_ring_map(&rx, fx, 16);
	pa_ring_map(&rc, fc, 16);
	ASSERT_OK(ioctl(fx, PERF_EVENT_IOC_ENABLE, 0));
	while (*nc < 5 && ms < 2000) {
		pa_work_cpu_ms(100);
		ms += 100;
		*nx += samples(&rx, &throttled);
		*nc += samples(&rc, &throttled);
	}
	ASSERT_OK(ioctl(fx, PERF_EVENT_IOC_DISABLE, 0));
	*nx += samples(&rx, &throttled);
	*nc += samples(&rc, &throttled);
	pa_diag("%d samples with exclude_idle, %d without, in %d ms of CPU time", *nx, *nc, ms);
	pa_ring_unmap(&rx);
	pa_ring_unmap(&rc);
	close(fc);
	close(fx);
	if (throttled) {
		/* a 1 ms timer overflows at most 1000/HZ + 1 times a tick:
		 * only a rate of 2000 or less explains a throttle */
		pa_diag("the kernel throttled the samplers %d times (perf_event_max_sample_rate %ld)",
			throttled, pa_throttle_check(2));
		return false;
	}
	return true;
}

PERFABI_CASE(
	.assertion = "attr.exclude_idle on a per-task cpu-clock sampling event is accepted and drops nothing while the task runs: over busy CPU time it takes as many 1 ms samples (within 2 + 1/8) as the same sampler without the bit in its group, which takes at least 5 in 2 s",
	.ref = "perf_event_open(2), exclude_idle: \"If this bit is set, don't count when the CPU is running the idle task\"; kernel/events/core.c perf_swevent_hrtimer(): \"if (!(event->attr.exclude_idle && is_idle_task(current)))\"",
	.covers = "attr.exclude_idle",
	.probe = pa_probe_self_perf,
) {
	int nx = 0, nc = 0, tx, tc, try, compared = 0;

	/* a host that stalls the vCPU collapses each timer's late periods
	 * into one sample, each by its own amount: such a try does not
	 * compare and the next one is made; a sampler that drops a running
	 * task's samples differs in every try */
	for (try = 1; try <= TRIES; try++) {
		if (!measure(&tx, &tc))
			continue;
		nx = tx;	/* the last try that compared is judged */
		nc = tc;
		compared++;
		if (nc >= 5 && abs(nx - nc) <= 2 + nc / 8)
			break;
	}
	if (!compared)
		pa_skip("the kernel throttled the samplers in every one of %d tries (perf_event_max_sample_rate %ld): their counts cannot be compared",
			TRIES, pa_sysctl_long("kernel/perf_event_max_sample_rate"));
	EXPECT_GE(nc, 5);
	EXPECT_LE(abs(nx - nc), 2 + nc / 8);
}
