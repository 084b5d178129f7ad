#include "perfabi.h"

#include <sys/resource.h>
#include <time.h>

/*
 * A per-task event with context_switch gets a PERF_RECORD_SWITCH with
 * PERF_RECORD_MISC_SWITCH_OUT when the task is switched out and one
 * without it when it is switched back in. Read while the task runs, the
 * records therefore alternate out, in, out, in, ... and end with an in:
 * as many of each. The task cannot run while switched out, so an out and
 * its in land in the ring together, or neither. A 2 ms sleep whose timer
 * expired before the task blocked (a slow, emulated CPU) does not switch it
 * out, so the task sleeps until the kernel counted three voluntary switches
 * (getrusage RUSAGE_THREAD ru_nvcsw): each is a switch-out record, so
 * there are at least that many pairs; preemption only adds pairs.
 */
PERFABI_CASE(
	.assertion = "attr.context_switch: a task that sleeps until it was switched out voluntarily three times gets PERF_RECORD_SWITCH records (at least one out and one in per voluntary switch) in an event with context_switch set, and none in an otherwise identical event without it; the records alternate, PERF_RECORD_MISC_SWITCH_OUT first, so there are exactly as many in as out",
	.ref = "perf_event_open(2), context_switch (4.3): \"enables the generation of PERF_RECORD_SWITCH records when a context switch occurs\", PERF_RECORD_MISC_SWITCH_OUT; kernel/events/core.c perf_event_switch()",
	.covers = "attr.context_switch record.SWITCH",
	.min_kernel = "4.3",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct timespec ts = { 0, 2000000 };
	struct rusage ru;
	uint64_t t0;
	long nvcsw;
	const struct perf_event_header *h;
	int fa, fb, n = 0, n_out = 0, bad = 0;
	struct pa_ring ra, rb;

	a.disabled = b.disabled = 0;
	a.context_switch = 1;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_ring_map(&ra, fa, 8);
	pa_ring_map(&rb, fb, 8);
	ASSERT_OK(getrusage(RUSAGE_THREAD, &ru));
	nvcsw = ru.ru_nvcsw;
	t0 = pa_clock_ns(CLOCK_MONOTONIC);
	do {
		nanosleep(&ts, NULL);
		ASSERT_OK(getrusage(RUSAGE_THREAD, &ru));
	} while (ru.ru_nvcsw - nvcsw < 3 && pa_clock_ns(CLOCK_MONOTONIC) - t0 < 5000000000ull);
	nvcsw = ru.ru_nvcsw - nvcsw;
	while ((h = pa_ring_next(&ra))) {
		bool out;

		EXPECT_EQ(h->type, PERF_RECORD_SWITCH);
		if (h->type != PERF_RECORD_SWITCH)
			continue;
		out = h->misc & PERF_RECORD_MISC_SWITCH_OUT;
		/* even positions: out, odd: in */
		if (out != (n % 2 == 0) && bad++ == 0)
			pa_diag("record %d is a switch %s", n, out ? "out" : "in");
		n_out += out;
		n++;
	}
	pa_diag("%d SWITCH records, %d of them out; %ld voluntary switches", n, n_out, nvcsw);
	EXPECT_EQ(bad, 0);
	EXPECT_EQ(n - n_out, n_out);
	ASSERT_GE(nvcsw, 3);
	EXPECT_GE(n_out, nvcsw);
	EXPECT_EQ(pa_ring_count(&rb, PERF_RECORD_SWITCH), 0);
	pa_ring_unmap(&ra);
	pa_ring_unmap(&rb);
	close(fa);
	close(fb);
}
