#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT on a breakpoint event's ring. A write
 * watchpoint with sample_period 1 writes one PERF_SAMPLE_ADDR sample per
 * write, from the #DB handler (perf_bp_event() -> perf_swevent_event() ->
 * __perf_event_overflow() -> perf_event_output_forward()), so data_head is
 * exact right after each write. While the ring is paused,
 * __perf_output_begin() finds rb->paused, counts the record in rb->lost
 * and writes nothing; the event goes on counting. After PAUSE_OUTPUT 0 the
 * next output first writes PERF_RECORD_LOST {id, lost = the dropped
 * samples} (local_xchg(&rb->lost, 0)), then the sample.
 *
 * 4 writes, PAUSE_OUTPUT 1, 10 writes, PAUSE_OUTPUT 0, 1 write: the ring
 * holds exactly 4 samples, one LOST {id, 10}, one sample; the count is 15.
 * Period 1 never throttles (perf_swevent_overflow(event, 1, ...) passes
 * throttle = 0); a THROTTLE record all the same goes to
 * pa_throttled_in_burst().
 */
#define BEFORE	4
#define PAUSED	10

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

static volatile uint64_t target __attribute__((aligned(8)));

static void writes(int n)
{
	for (int i = 0; i < n; i++)
		target = (uint64_t)i;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_PAUSE_OUTPUT 1 on a sampling write watchpoint's ring (period 1) drops the samples of the writes made "
		     "while paused (data_head does not move) while the event goes on counting them; after PAUSE_OUTPUT 0 the next record "
		     "is preceded by one PERF_RECORD_LOST {id, lost} with lost = the writes made while paused",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (since Linux 4.7): \"A paused ring-buffer does not prevent generation of samples, but simply "
	       "discards them. The discarded samples are considered lost, and cause a PERF_RECORD_LOST sample to be generated when possible\"; PERF_RECORD_LOST {id, lost}; kernel/events/ring_buffer.c "
	       "__perf_output_begin() (rb->paused -> rb->lost++, then a PERF_RECORD_LOST with local_xchg(&rb->lost, 0)); kernel/events/core.c "
	       "perf_bp_event()",
	.covers = "ioctl.PAUSE_OUTPUT record.LOST record.SAMPLE sample.ADDR type.BREAKPOINT",
	.min_kernel = "4.7",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	const struct perf_event_header *h;
	uint64_t id, rec, head[4], count;
	const struct lost_rec *l = NULL;
	int fd, n = 0, throttled = 0, lost_at = -1, samples_after = 0;
	struct lost_rec lcopy;
	struct pa_sample s;
	struct pa_ring r;

	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_ADDR;
	rec = pa_sample_size(&a, NULL);
	fd = ASSERT_OPEN(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 8);
	pa_ring_prefault(&r);
	writes(1);			/* disabled: nothing */
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_ring_head(&r), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	writes(BEFORE);
	head[0] = pa_ring_head(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	writes(PAUSED);			/* PAUSED samples dropped */
	head[1] = pa_ring_head(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	head[2] = pa_ring_head(&r);	/* nothing written yet */
	writes(1);
	head[3] = pa_ring_head(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	count = pa_read_one(fd);

	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE) {
			throttled++;
			continue;
		}
		if (h->type == PERF_RECORD_LOST) {
			EXPECT_EQ(lost_at, -1);		/* one LOST record */
			EXPECT_EQ(h->size, sizeof(lcopy));
			memcpy(&lcopy, h, sizeof(lcopy));
			l = &lcopy;
			lost_at = n;
			continue;
		}
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("unexpected record type %u", h->type);
			continue;
		}
		if (!pa_sample_parse(&a, h, &s))
			pa_abort();
		EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)&target);
		if (lost_at >= 0)
			samples_after++;
		n++;
	}
	pa_ring_unmap(&r);
	close(fd);
	pa_diag("count %llu; data_head %llu %llu %llu %llu; %d samples, LOST after sample %d",
		(unsigned long long)count, (unsigned long long)head[0], (unsigned long long)head[1],
		(unsigned long long)head[2], (unsigned long long)head[3], n, lost_at);
	if (throttled)
		pa_throttled_in_burst(BEFORE + PAUSED + 1);

	EXPECT_EQ(count, BEFORE + PAUSED + 1);	/* counting went on */
	EXPECT_EQ(head[0], BEFORE * rec);
	EXPECT_EQ(head[1], head[0]);		/* paused: nothing written */
	EXPECT_EQ(head[2], head[0]);
	EXPECT_EQ(head[3], head[0] + sizeof(struct lost_rec) + rec);
	EXPECT_EQ(n, BEFORE + 1);
	ASSERT_TRUE(l != NULL);
	EXPECT_EQ(lost_at, BEFORE);		/* between the 4th and the 5th sample */
	EXPECT_EQ(samples_after, 1);
	EXPECT_EQ(l->id, id);
	EXPECT_EQ(l->lost, PAUSED);
}
