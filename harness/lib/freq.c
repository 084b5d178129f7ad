// SPDX-License-Identifier: GPL-2.0
/*
 * perfabi: when a freq event's period can adapt, read from its samples.
 *
 * With attr.freq set the kernel starts at period 1 and adapts the period
 * at an overflow only where perf_clock() moved by more than 0 and less
 * than 2 ticks since the previous overflow (kernel/events/core.c
 * __perf_event_account_interrupt(): delta > 0 && delta < 2*TICK_NSEC;
 * the other path, perf_adjust_freq_unthr_context(), runs at a tick). The
 * clock is local_clock(): on a guest whose sched clock is marked unstable
 * it is clamped to the last tick's time + 1 tick (sched_clock_local()),
 * so where the host holds the guest's tick back, the clock stands still
 * for a while and a burst of overflows sees delta 0 each time: the
 * period then rightly stays 1, which is the environment, not the kernel.
 *
 * The samples say which it was: with PERF_SAMPLE_TIME each carries
 * perf_clock() of its overflow (the same local_clock(), read microseconds
 * later in perf_prepare_sample()). Two consecutive steps of 0 < dt <= 1 ms
 * (under 2 ticks for any HZ up to 1000) are two overflows at which the
 * kernel had to adapt; the second is pa_freq_chance()'s index.
 */
#include "perfabi.h"

#define CHANCE_MAX_NS	1000000ull	/* 1 ms: 2 ticks at HZ 1000 */

int pa_freq_chance(const uint64_t *time, int n)
{
	int run = 0;

	for (int k = 1; k < n; k++) {
		uint64_t dt = time[k] - time[k - 1];

		if (time[k] > time[k - 1] && dt <= CHANCE_MAX_NS) {
			if (++run == 2)
				return k;
		} else {
			run = 0;
		}
	}
	return -1;
}

#define FREQ_TIMES	4096	/* the times kept: more than any case makes */
#define FREQ_TAIL	2	/* samples after the second chance (see below) */

bool pa_freq_try_verdict(struct pa_ring *r, const struct perf_event_attr *a, int most)
{
	static uint64_t time[FREQ_TIMES];
	struct pa_sample s;
	uint64_t first = 0;
	int n = 0, chance;

	while (pa_ring_own_sample(r, a, &s)) {
		if (n == 0)
			first = s.period;
		if (n < FREQ_TIMES)
			time[n] = s.time;
		n++;
	}
	chance = pa_freq_chance(time, n < FREQ_TIMES ? n : FREQ_TIMES);
	pa_diag("freq: %d samples, the first of period %llu; the clock's second chance to adapt at sample %d (-1: none)",
		n, (unsigned long long)first, chance);
	EXPECT_GE(n, 1);
	if (n >= 1)
		EXPECT_EQ(first, 1);	/* perf_event_alloc(): period 1 */
	if (chance >= 0) {
		/* two overflows 0 < dt <= 1 ms apart: each set the period to
		 * at least 1 + (10^9 / 1 ms - 1 + 7) / 8 = 125,001 events
		 * (perf_adjust_period() at sample_freq 1), more than any case
		 * makes; only overflows already counted down at the old
		 * period may follow */
		EXPECT_LE(n - 1 - chance, FREQ_TAIL);
		return true;
	}
	return n < most;	/* adapted at a tick; or no chance, no verdict */
}

#define FREQ_TRIES	3

void pa_freq_expect_adapts(bool (*try_once)(void *), void *arg, int events, const char *what)
{
	for (int try = 0; try < FREQ_TRIES; try++) {
		if (try_once(arg))
			return;
		pa_sleep_ms(10);	/* a tick or two later */
	}
	pa_skip("the kernel's clock (perf_clock()) never moved by 0 < dt <= 1 ms between two overflows in %d tries of %d %s, and the period stayed 1: it could not adapt",
		FREQ_TRIES, events, what);
}
