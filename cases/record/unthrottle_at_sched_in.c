#include "perfabi.h"

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

PERFABI_CASE(
	.assertion = "an event throttled when its task goes to sleep is unthrottled when the task is scheduled in again: the PERF_RECORD_UNTHROTTLE {time, id, stream_id} that follows its PERF_RECORD_THROTTLE is timed after the sleep's end and before the sleep call returned",
	.ref = "perf_event_open(2), PERF_RECORD_THROTTLE/PERF_RECORD_UNTHROTTLE; kernel/events/core.c event_sched_in(): \"Unthrottle events, since we scheduled we might have missed several ticks already\"; perf_event_task_tick() unthrottles only the running task's context",
	.alone = true,
	/* throttled "20 us after each tick": two 10 us task-clock overflows
	 * inside one tick, which low-resolution hrtimers (they expire only at
	 * the tick) never give */
	.features = "hrtimer",
	.covers = "record.THROTTLE record.UNTHROTTLE sysctl.perf_event_max_sample_rate attr.use_clockid",
	.min_kernel = "4.1",	/* use_clockid */
	.root = true,
	.timeout = 30,
) {
	struct pa_throttle th;
	uint64_t t0, t1, last_thr = 0, unthr;
	int round, decided = 0, undecided = 0;
	bool throttled_at_t0;

	pa_throttle_open(&th);
	for (round = 0; round < ROUNDS && !decided; round++) {
		/* 2 ms of CPU: throttled 20 us after each tick */
		pa_work_cpu_ms(2);
		t0 = pa_clock_ns(CLOCK_MONOTONIC);
		pa_sleep_ms(SLEEP_MS);
		t1 = pa_clock_ns(CLOCK_MONOTONIC);

		/* the first UNTHROTTLE after the sleep began */
		throttled_at_t0 = pa_throttle_scan(&th, t0, &last_thr, &unthr);
		if (throttled_at_t0 && unthr) {
			if (unthr < t0 + SLEEP_MS * 1000000ULL) {
				pa_diag("round %d: unthrottled %llu ns into the sleep call (not yet asleep)",
					round, (unsigned long long)(unthr - t0));
				undecided++;
			} else {
				/* scheduled in after the sleep, before it returned */
				EXPECT_LE(unthr, t1);
				EXPECT_GT(unthr, last_thr);
				decided = 1;
			}
		}
		if (!decided && !throttled_at_t0)
			undecided++;
	}
	pa_throttle_close(&th);
	pa_diag("%d round(s), %d undecided", round, undecided);
	EXPECT_TRUE(decided);
}
