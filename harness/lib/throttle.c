// SPDX-License-Identifier: GPL-2.0
/*
 * An event that is throttled again and again, for the cases that check
 * when it is unthrottled (PERF_RECORD_THROTTLE/PERF_RECORD_UNTHROTTLE).
 * Its own file: pa_sysctl_write() lives in case_main.c, which the runner
 * must not pull in.
 */
#include "internal.h"

#include <sys/ioctl.h>
#include <time.h>

struct pa_throttle_rec {
	struct perf_event_header h;
	uint64_t time, id, stream_id;
};

void pa_throttle_open(struct pa_throttle *t)
{
	/* task-clock is hrtimer driven: every overflow is accounted with
	 * throttling on (10 us is its shortest period) */
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_TASK_CLOCK, 10000);

	if (pa_sysctl_read("kernel/perf_event_max_sample_rate", t->rate, sizeof(t->rate)) ||
	    pa_sysctl_read("kernel/perf_cpu_time_max_percent", t->pct, sizeof(t->pct)))
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
	t->fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	t->id = 0;
	ASSERT_OK(ioctl(t->fd, PERF_EVENT_IOC_ID, &t->id));
	/* the first record must be a THROTTLE */
	t->last = PERF_RECORD_UNTHROTTLE;
	pa_ring_map(&t->r, t->fd, 64);
	ASSERT_OK(ioctl(t->fd, PERF_EVENT_IOC_ENABLE, 0));
}

bool pa_throttle_scan(struct pa_throttle *t, uint64_t t0, uint64_t *last_thr,
		      uint64_t *unthr)
{
	const struct perf_event_header *h;
	bool throttled_at_t0 = false;

	*unthr = 0;
	while ((h = pa_ring_next(&t->r))) {
		const struct pa_throttle_rec *rec = (const void *)h;

		ASSERT_NE(h->type, (uint32_t)PERF_RECORD_LOST);
		if (h->type != PERF_RECORD_THROTTLE && h->type != PERF_RECORD_UNTHROTTLE)
			continue;
		ASSERT_EQ(h->size, sizeof(*rec));
		EXPECT_EQ(h->misc, 0);
		EXPECT_EQ(rec->id, t->id);
		EXPECT_EQ(rec->stream_id, t->id);
		/* THROTTLE, UNTHROTTLE, THROTTLE, ... */
		ASSERT_NE(h->type, t->last);
		t->last = h->type;
		if (rec->time <= t0) {
			throttled_at_t0 = h->type == PERF_RECORD_THROTTLE;
			if (throttled_at_t0)
				*last_thr = rec->time;
			continue;
		}
		if (h->type == PERF_RECORD_UNTHROTTLE && !*unthr)
			*unthr = rec->time;
	}
	return throttled_at_t0;
}

void pa_throttle_close(struct pa_throttle *t)
{
	pa_ring_unmap(&t->r);
	close(t->fd);
	pa_sysctl_write("kernel/perf_event_max_sample_rate", t->rate);
	pa_sysctl_write("kernel/perf_cpu_time_max_percent", t->pct);
}
