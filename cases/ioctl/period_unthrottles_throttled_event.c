#include "perfabi.h"

#include <sys/ioctl.h>
#include <time.h>

/*
 * A throttled event is otherwise unthrottled by the next tick of its CPU
 * (every 1 to 10 ms). PERF_EVENT_IOC_PERIOD on a running throttled event
 * unthrottles it at once (__perf_event_period()), so after "spin until
 * throttled, change the period" the UNTHROTTLE record is timed inside the
 * ioctl call.
 *
 * A tick in the microseconds between the last sample and the ioctl
 * unthrottles it first: such a round does not decide and the next one is
 * tried.
 */
#define ROUNDS		10

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on a running event that is throttled unthrottles it: the PERF_RECORD_UNTHROTTLE {time, id, stream_id} that follows its PERF_RECORD_THROTTLE is timed inside the ioctl call",
	.ref = "perf_event_open(2), PERF_RECORD_THROTTLE/PERF_RECORD_UNTHROTTLE; PERF_EVENT_IOC_PERIOD; kernel/events/core.c __perf_event_period(): \"We could be throttled; unthrottle now to avoid the tick trying to unthrottle while we already re-started the event\"",
	.alone = true,
	/* throttled "20 us after each tick": two 10 us task-clock overflows
	 * inside one tick, which low-resolution hrtimers (they expire only at
	 * the tick) never give */
	.features = "hrtimer",
	.covers = "ioctl.PERIOD record.THROTTLE record.UNTHROTTLE sysctl.perf_event_max_sample_rate attr.use_clockid",
	.min_kernel = "4.1",	/* use_clockid */
	.root = true,
	.timeout = 30,
) {
	struct pa_throttle th;
	uint64_t t0, t1, last_thr = 0, unthr, period;
	int round, decided = 0, undecided = 0;
	bool throttled_at_t0;

	pa_throttle_open(&th);
	for (round = 0; round < ROUNDS && !decided; round++) {
		/* 2 ms of CPU: throttled 20 us after each tick */
		pa_work_cpu_ms(2);
		period = round % 2 ? 10000 : 20000;
		t0 = pa_clock_ns(CLOCK_MONOTONIC);
		ASSERT_OK(ioctl(th.fd, PERF_EVENT_IOC_PERIOD, &period));
		t1 = pa_clock_ns(CLOCK_MONOTONIC);

		/* the first UNTHROTTLE after the ioctl began */
		throttled_at_t0 = pa_throttle_scan(&th, t0, &last_thr, &unthr);
		if (throttled_at_t0 && unthr) {
			if (unthr > t1) {
				pa_diag("round %d: unthrottled %llu ns after the ioctl returned",
					round, (unsigned long long)(unthr - t1));
			} else {
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
