#include "perfabi.h"

#include <sys/ioctl.h>
#include <time.h>

struct throttle_rec {
	struct perf_event_header h;
	uint64_t time, id, stream_id;
};

/*
 * The smallest step CLOCK_MONOTONIC takes here. With the jiffies
 * clocksource (no TSC, HPET or ACPI PM timer: the sweep's noacpi kernel) it
 * advances only at ticks, and without high-resolution timers the task-clock
 * hrtimer runs from the tick itself (update_process_times() ->
 * run_local_timers() before sched_tick() -> perf_event_task_tick()): the
 * THROTTLE of a tick's overflow and the UNTHROTTLE of the same tick's perf
 * tick then read the same clock value. The smallest of 5 steps, so that a
 * preemption between two reads cannot make a fine clock look coarse.
 */
static uint64_t clock_step_ns(void)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t a = pa_clock_ns(CLOCK_MONOTONIC), b;

		while ((b = pa_clock_ns(CLOCK_MONOTONIC)) == a)
			;
		if (b - a < best)
			best = b - a;
	}
	return best;
}

PERFABI_CASE(
	.assertion = "an event that overflows more often than perf_event_max_sample_rate allows per tick is throttled and then unthrottled on a later tick: PERF_RECORD_THROTTLE then PERF_RECORD_UNTHROTTLE {time, id, stream_id}, alternating, each UNTHROTTLE strictly later than its THROTTLE (not earlier, on a clock that only advances at ticks), with id and stream_id the event's id and time read from the event's clock (attr.clockid) between the enable and the read",
	.ref = "perf_event_open(2), PERF_RECORD_THROTTLE/PERF_RECORD_UNTHROTTLE: \"This record indicates a throttle event ... unthrottle event\" {time, id, stream_id}; kernel/events/core.c perf_log_throttle() (time = perf_event_clock()), __perf_event_account_interrupt() (max_samples_per_tick = DIV_ROUND_UP(max_sample_rate, HZ)), perf_adjust_freq_unthr_context()",
	.alone = true,
	.covers = "record.THROTTLE record.UNTHROTTLE sysctl.perf_event_max_sample_rate attr.use_clockid",
	.min_kernel = "4.1",	/* use_clockid */
	.root = true,
	.timeout = 30,
) {
	/* task-clock is hrtimer driven: every overflow is accounted with
	 * throttling on; its period is at least 10us. */
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_TASK_CLOCK, 10000);
	const struct perf_event_header *h;
	struct pa_ring r;
	uint64_t id = 0, t_open, t_end, now, last = 0;
	uint32_t want = PERF_RECORD_THROTTLE;
	char rate[32], pct[32];
	int fd, thr = 0, unthr = 0;
	/* a clock finer than 100 us tells a later tick from the same one */
	bool fine = clock_step_ns() < 100000;

	/* the change is system-wide: put both back as soon as the pair came */
	if (pa_sysctl_read("kernel/perf_event_max_sample_rate", rate, sizeof(rate)) ||
	    pa_sysctl_read("kernel/perf_cpu_time_max_percent", pct, sizeof(pct)))
		pa_skip("cannot read the perf sample-rate sysctls");
	if (pa_sysctl_write("kernel/perf_cpu_time_max_percent", "25"))
		pa_skip("cannot set kernel.perf_cpu_time_max_percent");
	/* one sample per tick at most (any HZ) */
	if (pa_sysctl_write("kernel/perf_event_max_sample_rate", "1"))
		pa_skip("cannot set kernel.perf_event_max_sample_rate");
	attr.sample_type = PERF_SAMPLE_IP;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	/* disabled until the ring is there: a THROTTLE written before it is
	 * lost, and its UNTHROTTLE would come alone */
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 64);
	t_open = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	/* spin (generous bound) until both records came */
	t_end = t_open + 10ULL * 1000000000ULL;
	while ((!thr || !unthr) && pa_clock_ns(CLOCK_MONOTONIC) < t_end) {
		while ((h = pa_ring_next(&r))) {
			const struct throttle_rec *t = (const void *)h;

			now = pa_clock_ns(CLOCK_MONOTONIC);
			ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
			if (h->type != PERF_RECORD_THROTTLE && h->type != PERF_RECORD_UNTHROTTLE)
				continue;
			ASSERT_EQ(h->size, sizeof(*t));
			EXPECT_EQ(h->misc, 0);
			EXPECT_EQ(t->id, id);
			EXPECT_EQ(t->stream_id, id);
			/* THROTTLE, UNTHROTTLE, THROTTLE, ...: an event is
			 * throttled only while not throttled */
			ASSERT_EQ(h->type, want);
			EXPECT_GE(t->time, t_open);
			EXPECT_LE(t->time, now);
			/* the UNTHROTTLE comes from a later tick than its
			 * THROTTLE: strictly later on the event's clock */
			if (h->type == PERF_RECORD_UNTHROTTLE && fine)
				EXPECT_GT(t->time, last);
			else
				EXPECT_GE(t->time, last);
			last = t->time;
			if (h->type == PERF_RECORD_THROTTLE) {
				thr++;
				want = PERF_RECORD_UNTHROTTLE;
			} else {
				unthr++;
				want = PERF_RECORD_THROTTLE;
			}
		}
	}
	pa_ring_unmap(&r);
	close(fd);
	pa_sysctl_write("kernel/perf_event_max_sample_rate", rate);
	pa_sysctl_write("kernel/perf_cpu_time_max_percent", pct);
	pa_diag("%d THROTTLE, %d UNTHROTTLE; CLOCK_MONOTONIC %s", thr, unthr,
		fine ? "fine (UNTHROTTLE strictly later)" : "advances at ticks (UNTHROTTLE not earlier)");
	EXPECT_GE(thr, 1);
	EXPECT_GE(unthr, 1);
}
