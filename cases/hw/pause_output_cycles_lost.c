#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT on the cycle counter, counted exactly. Each
 * overflow while the ring is paused reaches __perf_output_begin(), which
 * finds rb->paused: nothing is written, rb->lost and the event's
 * lost_samples (read_format PERF_FORMAT_LOST) go up by one, and the counter
 * is reloaded as ever (armpmu_event_set_period() does not depend on the
 * output). After PAUSE_OUTPUT 0 the first output puts one PERF_RECORD_LOST
 * {id, lost} with all the drops (local_xchg(&rb->lost, 0)) before its
 * sample. Across DISABLE/ENABLE the overflows stay at k * P of the total
 * count (armpmu_stop() updates period_left, armpmu_start() reloads from
 * it).
 *
 * Under QEMU -icount shift=0 (PERFABI_PMU_EXACT) a user-only
 * PERF_COUNT_HW_CPU_CYCLES sampler, period P: paused over 4.5 periods,
 * exactly 4 overflows are lost (LOST 4, data_head 0); resumed over 4
 * periods more (the count then 8.5 periods plus the short paths), exactly
 * 4 more overflows, each written: the ring holds PERF_RECORD_LOST
 * {IOC_ID, 4}, then 4 samples, and LOST stays 4.
 */
#define P	1200000ULL

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

/* count and LOST of the disabled event (nr, time_enabled, time_running,
 * value, lost); SKIP where it did not have the counter throughout */
static void read_lost(int fd, uint64_t *c, uint64_t *lost)
{
	uint64_t b[5];

	pa_read_u64(fd, b, 5);
	ASSERT_EQ(b[0], 1);
	if (!b[2] || b[2] < b[1])
		pa_skip("the event had the counter %llu of the %llu ns it was enabled (another user holds it)",
			(unsigned long long)b[2], (unsigned long long)b[1]);
	*c = b[3];
	*lost = b[4];
}

PERFABI_CASE(
	.assertion = "while PERF_EVENT_IOC_PAUSE_OUTPUT is set, a user-only PERF_COUNT_HW_CPU_CYCLES sampler (period 1.2M) writes nothing "
		     "and counts each overflow lost: after 4.5 periods data_head is 0 and LOST is 4; after PAUSE_OUTPUT 0 and 4 periods more "
		     "the ring holds PERF_RECORD_LOST {id, 4}, then exactly 4 samples, and LOST stays 4 (exact PMU)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (since Linux 4.7), read_format PERF_FORMAT_LOST (since Linux 6.0), "
	       "PERF_RECORD_LOST; kernel/events/ring_buffer.c __perf_output_begin() (rb->paused: rb->lost++, lost_samples++; the next "
	       "output puts a PERF_RECORD_LOST first); drivers/perf/arm_pmu.c armpmu_stop(), armpmu_start(), armpmu_event_set_period()",
	.covers = "hw.CPU_CYCLES ioctl.PAUSE_OUTPUT read_format.LOST record.LOST record.SAMPLE type.HARDWARE",
	.min_kernel = "6.0",	/* PERF_FORMAT_LOST */
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	const struct perf_event_header *h;
	uint64_t id, c1, c2, lost1, lost2, head1;
	int fd, samples = 0, throttled = 0, other = 0, lostrecs = 0;
	struct pa_ring r;

	pa_hws_need();
	a = pa_hws_attr(P, PERF_SAMPLE_IP);
	a.read_format |= PERF_FORMAT_LOST;
	fd = pa_hw_open_sampler(&a);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	pa_hws_run_halves(fd, P, 9);		/* 4.5 periods */
	read_lost(fd, &c1, &lost1);
	head1 = pa_ring_head(&r);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	pa_hws_run_halves(fd, P, 8);		/* 4 more: 8.5 in all */
	read_lost(fd, &c2, &lost2);

	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE) {
			throttled++;
		} else if (h->type == PERF_RECORD_LOST) {
			const struct lost_rec *l = (const struct lost_rec *)h;

			if (lostrecs++ || samples)
				pa_fail("a PERF_RECORD_LOST not first in the ring (after %d samples)", samples);
			EXPECT_EQ(h->size, sizeof(*l));
			EXPECT_EQ(l->id, id);
			EXPECT_EQ(l->lost, 4);
		} else if (h->type == PERF_RECORD_SAMPLE) {
			samples++;
		} else {
			other++;
		}
	}
	pa_diag("paused: count %llu, LOST %llu, data_head %llu; resumed: count %llu, LOST %llu, %d samples, %d LOST records, "
		"%d other records", (unsigned long long)c1, (unsigned long long)lost1, (unsigned long long)head1,
		(unsigned long long)c2, (unsigned long long)lost2, samples, lostrecs, other);
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));

	EXPECT_EQ(head1, 0);				/* paused: nothing written */
	pa_hws_expect_overflows("LOST while paused", lost1, c1, P, 4);
	pa_hws_expect_overflows("overflows in all", lost2 + (uint64_t)samples, c2, P, 8);
	EXPECT_EQ(lost2, 4);				/* resumed: no more losses */
	EXPECT_EQ(lostrecs, 1);
	EXPECT_EQ(samples, 4);
	EXPECT_EQ(other, 0);
	pa_ring_unmap(&r);
	close(fd);
}
