#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT on a cpu-clock or task-clock sampler. Every
 * overflow of the event's hrtimer while the ring is paused fails in
 * __perf_output_begin() (rb->paused): nothing is written, rb->lost and
 * the event's lost_samples (read_format PERF_FORMAT_LOST) go up by one,
 * and the timer runs on: the clock goes on counting. The first record
 * written after PAUSE_OUTPUT 0 is a PERF_RECORD_LOST {id, lost} with all
 * those drops (local_xchg(&rb->lost, 0)), then the sample.
 *
 * How many periods pass is up to the timer, so the case waits for the
 * drops: it spins until LOST reads K (bounded at 5 s of this thread's CPU
 * time, 5000 periods) and disables the event; the LOST value then read is
 * the exact number the PERF_RECORD_LOST must carry. Each lost overflow
 * took a period of the clock, so the count is at least LOST periods (the
 * clocks' allowance of 2 % + 0.2 ms: ioctl/period_running_clock_event_
 * new_period_at_once).
 */
#define PERIOD_NS	1000000ULL	/* 1 ms */
#define K		5
#define WAIT_MS		5000

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

static void lost_while_paused(uint64_t config, const char *name)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(config, PERIOD_NS);
	const struct perf_event_header *h;
	const struct lost_rec *l;
	struct pa_sample s;
	struct pa_ring r;
	uint64_t v[2], lost, id, end;
	int fd, n = 0;

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.read_format = PERF_FORMAT_LOST;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 4);
	pa_ring_prefault(&r);
	pa_work_cpu_ms(5);		/* fault in the code and stack first */

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	end = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)WAIT_MS * 1000000ULL;
	do {
		pa_busy_loop(100000);	/* ~0.1 ms in user mode a check */
		pa_read_u64(fd, v, 2);
	} while (v[1] < K && pa_clock_ns(CLOCK_THREAD_CPUTIME_ID) < end);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, v, 2);
	lost = v[1];
	pa_diag("%s: paused: count %llu ns, %llu lost", name,
		(unsigned long long)v[0], (unsigned long long)lost);
	if (lost < K)
		pa_fail("%s: LOST reads %llu after %d ms of CPU time at a period of %llu ns: the paused event's overflows were not counted as lost",
			name, (unsigned long long)lost, WAIT_MS, (unsigned long long)PERIOD_NS);
	EXPECT_EQ(pa_ring_head(&r), 0);		/* nothing written */
	/* counting went on: each drop took a period of the clock */
	EXPECT_GE(v[0], lost * PERIOD_NS - lost * PERIOD_NS / 50 - 200000);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	EXPECT_EQ(pa_ring_head(&r), 0);		/* nothing until the next overflow */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	if (!pa_ring_spin_for_data(&r, WAIT_MS))
		pa_fail("%s: nothing written within %d ms of CPU time after PAUSE_OUTPUT 0", name, WAIT_MS);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, v, 2);
	EXPECT_EQ(v[1], lost);			/* no more losses */

	h = pa_ring_next(&r);
	ASSERT_TRUE(h != NULL);
	ASSERT_EQ(h->type, PERF_RECORD_LOST);
	l = (const struct lost_rec *)h;
	EXPECT_EQ(h->size, sizeof(*l));
	EXPECT_EQ(l->id, id);
	EXPECT_EQ(l->lost, lost);
	while ((h = pa_ring_next(&r))) {
		ASSERT_EQ(h->type, PERF_RECORD_SAMPLE);
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.tid, (uint32_t)gettid());
		n++;
	}
	EXPECT_GE(n, 1);
	pa_diag("%s: resumed: PERF_RECORD_LOST, then %d sample(s)", name, n);
	pa_ring_unmap(&r);
	close(fd);
}

PERFABI_CASE(
	.assertion = "while PERF_EVENT_IOC_PAUSE_OUTPUT is set, a cpu-clock or task-clock sampling event writes nothing to its ring and counts each overflow as lost (read_format PERF_FORMAT_LOST), while the clock counts on (at least LOST periods); after PAUSE_OUTPUT 0 the first record is one PERF_RECORD_LOST {id, lost = the LOST value read}, then samples",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (since Linux 4.7), read_format PERF_FORMAT_LOST (since Linux 6.0), PERF_RECORD_LOST; kernel/events/ring_buffer.c __perf_output_begin() (rb->paused: rb->lost++, lost_samples++; the next output puts a PERF_RECORD_LOST first); kernel/events/core.c perf_swevent_hrtimer()",
	.covers = "ioctl.PAUSE_OUTPUT read_format.LOST record.LOST record.SAMPLE sw.CPU_CLOCK sw.TASK_CLOCK",
	.min_kernel = "6.0",	/* PERF_FORMAT_LOST */
	.features = "hrtimer",
	.probe = pa_probe_self_perf,
	.timeout = 40,
) {
	lost_while_paused(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	lost_while_paused(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
}
