#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_PAUSE_OUTPUT on a hardware sampler. Each overflow (PMI)
 * while the ring is paused reaches perf_output_begin() from
 * perf_event_output(), where __perf_output_begin() finds rb->paused: it
 * writes nothing, counts rb->lost and the event's lost_samples
 * (read_format PERF_FORMAT_LOST) up by one, and the counter is reloaded
 * and counts on as before (the PMI handler's reload does not depend on the
 * output). After PAUSE_OUTPUT 0 the first output puts one PERF_RECORD_LOST
 * {id, lost} with all the drops (local_xchg(&rb->lost, 0)) before the
 * sample.
 *
 * PERF_COUNT_HW_INSTRUCTIONS in user space, sample_period P: the overflows
 * come at counts k * P exactly, across a DISABLE/ENABLE too (the stop
 * updates period_left, the restart reloads from it: x86_pmu_stop(),
 * x86_perf_event_set_period()). Paused, a loop of 14.5 P instructions:
 * LOST = floor(c1 / P) with c1 the count then. Resumed, 8 P more: the ring
 * holds the PERF_RECORD_LOST {id, LOST}, then floor(c2 / P) -
 * floor(c1 / P) samples, and LOST stays. The skid rule of
 * hw/sample_period_instructions_every_nth (an overflow interrupt is taken
 * within SKID = 3072 user instructions) makes these exact where c mod P >
 * SKID at each DISABLE (the loops leave about P / 2); an overflow in the
 * last SKID instructions may find the counter stopped, neither written nor
 * lost: then one less.
 *
 * Rate: pa_loop3() runs at most 3 instructions a cycle, so at most 18
 * overflows fall in a 1 ms tick at 6 GHz: a throttle is only possible
 * where perf_event_max_sample_rate has fallen to 18000 or less
 * (pa_throttled_in_burst(18)). A multiplexed counter SKIPs.
 */
#define P	1000064ULL	/* sample_period: 15626 * 64 */
#define L1	4833643ULL	/* pa_loop3() iterations: 14.5 P instructions */
#define L2	2666837ULL	/* 8 P */
#define SKID	3072ULL
#define BURST	18

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

/* want: the overflows up to count c since the last check point; exact
 * unless an overflow lies within SKID of c */
static void expect_overflows(const char *what, uint64_t got, uint64_t want, uint64_t c)
{
	if (c % P > SKID)
		EXPECT_EQ(got, want);
	else if (got != want && got + 1 != want)
		pa_fail("%s: %llu, expected %llu or (an overflow in the last %llu instructions) one less", what,
			(unsigned long long)got, (unsigned long long)want, (unsigned long long)SKID);
}

PERFABI_CASE(
	.assertion = "while PERF_EVENT_IOC_PAUSE_OUTPUT is set, a PERF_COUNT_HW_INSTRUCTIONS sampler (period 1000064) writes nothing and "
		     "counts each overflow as lost: after 14.5 periods data_head is 0 and LOST (read_format) is floor(count / period); after "
		     "PAUSE_OUTPUT 0 and 8 periods more the ring holds one PERF_RECORD_LOST {id, that LOST}, then one sample per new overflow, "
		     "and LOST is unchanged",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_PAUSE_OUTPUT (since Linux 4.7), read_format PERF_FORMAT_LOST (since Linux 6.0), "
	       "PERF_RECORD_LOST; kernel/events/ring_buffer.c __perf_output_begin() (rb->paused: rb->lost++, lost_samples++; the next "
	       "output puts a PERF_RECORD_LOST first); arch/x86/events/core.c x86_pmu_handle_irq(), x86_perf_event_set_period()",
	.covers = "ioctl.PAUSE_OUTPUT read_format.LOST record.LOST record.SAMPLE type.HARDWARE hw.INSTRUCTIONS",
	.min_kernel = "6.0",	/* PERF_FORMAT_LOST */
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	const struct perf_event_header *h;
	const struct lost_rec *l;
	uint64_t id, c1, c2, lost1, lost2, head1;
	int fd, samples = 0, throttled = 0, other = 0;
	bool first = true;
	struct pa_ring r;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	a.type = PERF_TYPE_HARDWARE;
	a.sample_period = P;
	a.sample_type = PERF_SAMPLE_IP;
	a.read_format = PA_HW_GROUP_FMT | PERF_FORMAT_LOST;
	a.disabled = 1;
	fd = pa_hw_open_sampler(&a);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 2);
	pa_ring_prefault(&r);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(L1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	read_lost(fd, &c1, &lost1);
	head1 = pa_ring_head(&r);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(L2);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	read_lost(fd, &c2, &lost2);

	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE) {
			throttled++;
			continue;
		}
		if (first) {
			first = false;
			if (h->type != PERF_RECORD_LOST) {
				pa_fail("the first record after PAUSE_OUTPUT 0 is of type %u, not PERF_RECORD_LOST", h->type);
			} else {
				l = (const struct lost_rec *)h;
				EXPECT_EQ(h->size, sizeof(*l));
				EXPECT_EQ(l->id, id);
				EXPECT_EQ(l->lost, lost1);
				continue;
			}
		}
		if (h->type == PERF_RECORD_SAMPLE)
			samples++;
		else
			other++;
	}
	pa_diag("paused: count %llu (%llu periods + %llu), LOST %llu, data_head %llu; resumed: count %llu (%llu periods + %llu), "
		"LOST %llu, %d samples, %d other records, %d throttle records", (unsigned long long)c1,
		(unsigned long long)(c1 / P), (unsigned long long)(c1 % P), (unsigned long long)lost1,
		(unsigned long long)head1, (unsigned long long)c2, (unsigned long long)(c2 / P),
		(unsigned long long)(c2 % P), (unsigned long long)lost2, samples, other, throttled);
	if (throttled)
		pa_throttled_in_burst(BURST);

	EXPECT_GE(c1, 3 * L1);				/* the loops at least */
	EXPECT_GE(c2, c1 + 3 * L2);
	EXPECT_EQ(head1, 0);				/* paused: nothing written */
	expect_overflows("LOST while paused", lost1, c1 / P, c1);
	EXPECT_EQ(lost2, lost1);			/* resumed: no more losses */
	EXPECT_FALSE(first);				/* something was written */
	expect_overflows("samples after PAUSE_OUTPUT 0", (uint64_t)samples, c2 / P - c1 / P, c2);
	EXPECT_EQ(other, 0);
	pa_ring_unmap(&r);
	close(fd);
}
