// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_PERIOD on a running sampling event: the sequence every
 * implementation that counts periods in perf_swevent_set_period() gives
 * (software events, tracepoints, kprobes, uprobes, breakpoints), checked
 * once here for the cases of each.
 */
#include "perfabi.h"

#include <sys/ioctl.h>

#define BEFORE	5	/* events of the old period before the ioctl */
#define TRIES	20

struct period_try {
	uint64_t head[7], count;	/* data_head after each step */
	int samples, throttled;
	long sw, vsw_ioctl;		/* switches in the window; voluntary across PERIOD */
};

static void period_try(const struct perf_event_attr *a, uint64_t newp,
		       void (*hits)(int n), struct period_try *t)
{
	uint64_t old = a->sample_period, period = newp, id;
	struct perf_event_attr ev = *a;
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	long v;
	int fd;

	ev.disabled = 1;
	fd = ASSERT_OPEN(&ev, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	/* run once, before anything counts, the code the counted part runs
	 * (a software page-fault event counts the faults of its first run) */
	hits(1);		/* disabled: not counted */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_GE(pa_thread_switches(), 0);
	ASSERT_GE(pa_thread_vswitches(), 0);
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_ring_head(&r), 0);

	t->sw = pa_thread_switches();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	hits(BEFORE);				/* BEFORE of the old period */
	t->head[0] = pa_ring_head(&r);
	v = pa_thread_vswitches();
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	t->vsw_ioctl = pa_thread_vswitches() - v;
	hits(1);				/* event 1 after the ioctl */
	t->head[1] = pa_ring_head(&r);
	hits((int)old - 2);			/* events 2 .. OLD-1 */
	t->head[2] = pa_ring_head(&r);
	hits(1);				/* event OLD */
	t->head[3] = pa_ring_head(&r);
	hits((int)newp - 1);
	t->head[4] = pa_ring_head(&r);
	hits(1);				/* event OLD + NEW */
	t->head[5] = pa_ring_head(&r);
	hits((int)newp);			/* event OLD + 2 NEW */
	t->head[6] = pa_ring_head(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	t->sw = pa_thread_switches() - t->sw;
	hits(1);				/* disabled again: not counted */

	t->count = pa_read_one(fd);
	t->samples = t->throttled = 0;
	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE) {
			t->throttled++;
			continue;
		}
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("unexpected record type %u", h->type);
			continue;
		}
		if (a->type == PERF_TYPE_BREAKPOINT && (a->sample_type & PERF_SAMPLE_ADDR)) {
			if (!pa_sample_parse(a, h, &s))
				pa_abort();
			EXPECT_EQ(s.addr, a->bp_addr);
		}
		t->samples++;
	}
	pa_ring_unmap(&r);
	close(fd);
}

void pa_period_old_once(const struct perf_event_attr *a, uint64_t newp, void (*hits)(int n))
{
	uint64_t old = a->sample_period, rec = pa_sample_size(a, NULL);
	struct period_try t;
	int i, blocked = 0;

	ASSERT_TRUE(old > newp && newp >= 2 && !a->freq && !(a->sample_type & PERF_SAMPLE_PERIOD));
	for (i = 0; i < TRIES; i++) {
		period_try(a, newp, hits, &t);
		EXPECT_EQ(t.head[0], 0);	/* BEFORE of OLD: no sample */
		if (t.throttled)		/* 4 overflows: the rate must explain it */
			(void)pa_throttle_check(4);
		if (!t.sw && !t.throttled)
			break;
		pa_diag("try %d: %ld context switch(es) from ENABLE to DISABLE (%ld blocked in PERIOD), %d throttle record(s): again",
			i + 1, t.sw, t.vsw_ioctl, t.throttled);
		blocked += t.vsw_ioctl > 0;
	}
	/* Preemption is the busy CPU's, and an event may block (a page
	 * fault in reclaim); PERIOD itself has nothing to wait for. */
	if (blocked == TRIES) {
		pa_fail("PERF_EVENT_IOC_PERIOD blocked (a voluntary context switch) in every one of %d tries: the new period cannot take effect at the next event",
			TRIES);
		pa_abort();
	}
	if (i == TRIES)
		pa_skip("every one of %d tries was switched out between ENABLE and DISABLE, or throttled (perf_event_max_sample_rate %ld): a CPU too busy to run a few microseconds uninterrupted",
			TRIES, pa_sysctl_long("kernel/perf_event_max_sample_rate"));
	EXPECT_EQ(t.head[1], 1 * rec);		/* at once */
	EXPECT_EQ(t.head[2], 1 * rec);
	EXPECT_EQ(t.head[3], 2 * rec);		/* the old period, once */
	EXPECT_EQ(t.head[4], 2 * rec);
	EXPECT_EQ(t.head[5], 3 * rec);		/* then the new one */
	EXPECT_EQ(t.head[6], 4 * rec);
	EXPECT_EQ(t.count, BEFORE + old + 2 * newp);
	EXPECT_EQ(t.samples, 4);
}
