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

struct throttle_rec {
	struct perf_event_header h;
	uint64_t time, id, stream_id;
};

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PERIOD on a running event that is throttled unthrottles it: the PERF_RECORD_UNTHROTTLE {time, id, stream_id} that follows its PERF_RECORD_THROTTLE is timed inside the ioctl call",
	.ref = "perf_event_open(2), PERF_RECORD_THROTTLE/PERF_RECORD_UNTHROTTLE; PERF_EVENT_IOC_PERIOD; kernel/events/core.c __perf_event_period(): \"We could be throttled; unthrottle now to avoid the tick trying to unthrottle while we already re-started the event\"",
	.covers = "ioctl.PERIOD record.THROTTLE record.UNTHROTTLE sysctl.perf_event_max_sample_rate attr.use_clockid",
	.min_kernel = "4.1",	/* use_clockid */
	.root = true,
	.timeout = 30,
) {
	/* task-clock is hrtimer driven: every overflow is accounted with
	 * throttling on (10 us is its shortest period) */
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_TASK_CLOCK, 10000);
	const struct perf_event_header *h;
	uint64_t id = 0, t0 = 0, t1, last_thr = 0, period;
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
		period = round % 2 ? 10000 : 20000;
		t0 = pa_clock_ns(CLOCK_MONOTONIC);
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
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
			/* the first UNTHROTTLE after the ioctl began */
			if (h->type != PERF_RECORD_UNTHROTTLE || seen_unthr)
				continue;
			seen_unthr = true;
			if (!throttled_at_t0)
				continue;
			if (t->time > t1) {
				pa_diag("round %d: unthrottled %llu ns after the ioctl returned",
					round, (unsigned long long)(t->time - t1));
				continue;
			}
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
