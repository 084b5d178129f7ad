#include "perfabi.h"

#include <sys/ioctl.h>
#include <time.h>

/*
 * A throttled event waits for a tick of its own CPU to be unthrottled, but
 * the tick only looks at the task running there. A task that is throttled
 * and then sleeps gets no such tick: its events are unthrottled when it is
 * scheduled in again (event_sched_in()). So after "spin until throttled,
 * sleep 20 ms" the UNTHROTTLE record is timed after the 20 ms, before the
 * sleep returned.
 *
 * A tick (or a preemption) in the few microseconds between the last sample
 * and the task blocking unthrottles it before the sleep: such a round does
 * not decide and the next one is tried.
 */
#define SLEEP_MS	20
#define ROUNDS		10

struct throttle_rec {
	struct perf_event_header h;
	uint64_t time, id, stream_id;
};

PERFABI_CASE(
	.assertion = "an event throttled when its task goes to sleep is unthrottled when the task is scheduled in again: the PERF_RECORD_UNTHROTTLE {time, id, stream_id} that follows its PERF_RECORD_THROTTLE is timed after the sleep's end and before the sleep call returned",
	.ref = "perf_event_open(2), PERF_RECORD_THROTTLE/PERF_RECORD_UNTHROTTLE; kernel/events/core.c event_sched_in(): \"Unthrottle events, since we scheduled we might have missed several ticks already\"; perf_event_task_tick() unthrottles only the running task's context",
	.covers = "record.THROTTLE record.UNTHROTTLE sysctl.perf_event_max_sample_rate attr.use_clockid",
	.min_kernel = "4.1",	/* use_clockid */
	.root = true,
	.timeout = 30,
) {
	/* task-clock is hrtimer driven: every overflow is accounted with
	 * throttling on (10 us is its shortest period) */
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_TASK_CLOCK, 10000);
	const struct perf_event_header *h;
	uint64_t id = 0, t0 = 0, t1, last_thr = 0;
	uint32_t last = PERF_RECORD_UNTHROTTLE;
	char rate[32], pct[32];
	int fd, round, decided = 0, undecided = 0;
	struct pa_ring r;

	if (pa_sysctl_read("kernel/perf_event_max_sample_rate", rate, sizeof(rate)) ||
	    pa_sysctl_read("kernel/perf_cpu_time_max_percent", pct, sizeof(pct)))
		pa_skip("cannot read the perf sample-rate sysctls");
	/* max_sample_rate cannot be written while this is 0 or 100 */
	if (pa_sysctl_write("kernel/perf_cpu_time_max_percent", "25"))
		pa_skip("cannot set kernel.perf_cpu_time_max_percent");
	/* one sample per tick at most (any HZ) */
	if (pa_sysctl_write("kernel/perf_event_max_sample_rate", "1"))
		pa_skip("cannot set kernel.perf_event_max_sample_rate");
	attr.sample_type = PERF_SAMPLE_IP;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 64);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));

	for (round = 0; round < ROUNDS && !decided; round++) {
		bool throttled_at_t0, seen_unthr = false;

		/* 2 ms of CPU: throttled 20 us after each tick */
		pa_work_cpu_ms(2);
		t0 = pa_clock_ns(CLOCK_MONOTONIC);
		pa_sleep_ms(SLEEP_MS);
		t1 = pa_clock_ns(CLOCK_MONOTONIC);

		throttled_at_t0 = false;
		while ((h = pa_ring_next(&r))) {
			const struct throttle_rec *t = (const void *)h;

			ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
			if (h->type != PERF_RECORD_THROTTLE && h->type != PERF_RECORD_UNTHROTTLE)
				continue;
			ASSERT_EQ(h->size, sizeof(*t));
			EXPECT_EQ(h->misc, 0);
			EXPECT_EQ(t->id, id);
			EXPECT_EQ(t->stream_id, id);
			/* THROTTLE, UNTHROTTLE, THROTTLE, ... */
			ASSERT_NE(h->type, last);
			last = h->type;
			if (t->time <= t0) {
				throttled_at_t0 = h->type == PERF_RECORD_THROTTLE;
				if (throttled_at_t0)
					last_thr = t->time;
				continue;
			}
			/* the first UNTHROTTLE after the sleep began */
			if (h->type != PERF_RECORD_UNTHROTTLE || seen_unthr)
				continue;
			seen_unthr = true;
			if (!throttled_at_t0)
				continue;
			if (t->time < t0 + SLEEP_MS * 1000000ULL) {
				pa_diag("round %d: unthrottled %llu ns into the sleep call (not yet asleep)",
					round, (unsigned long long)(t->time - t0));
				undecided++;
				continue;
			}
			/* scheduled in after the sleep, before it returned */
			EXPECT_LE(t->time, t1);
			EXPECT_GT(t->time, last_thr);
			decided = 1;
		}
		if (!decided && !throttled_at_t0)
			undecided++;
	}
	pa_ring_unmap(&r);
	close(fd);
	pa_sysctl_write("kernel/perf_event_max_sample_rate", rate);
	pa_sysctl_write("kernel/perf_cpu_time_max_percent", pct);
	pa_diag("%d round(s), %d undecided", round, undecided);
	EXPECT_TRUE(decided);
}
