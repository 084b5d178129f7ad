#include "perfabi.h"

#include <time.h>

PERFABI_CASE(
	.assertion = "attr.context_switch: a task that sleeps three times gets PERF_RECORD_SWITCH records (at least one out and one in per sleep) in an event with context_switch set, and none in an otherwise identical event without it",
	.ref = "perf_event_open(2), context_switch (4.3): \"enables the generation of PERF_RECORD_SWITCH records when a context switch occurs\"; kernel/events/core.c perf_event_switch()",
	.covers = "attr.context_switch record.SWITCH",
	.min_kernel = "4.3",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct timespec ts = { 0, 2000000 };
	struct pa_ring ra, rb;
	int fa, fb, n;

	a.disabled = b.disabled = 0;
	a.context_switch = 1;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_ring_map(&ra, fa, 8);
	pa_ring_map(&rb, fb, 8);
	for (int i = 0; i < 3; i++)
		nanosleep(&ts, NULL);
	n = pa_ring_count(&ra, PERF_RECORD_SWITCH);
	pa_diag("%d SWITCH records", n);
	EXPECT_GE(n, 6);
	EXPECT_EQ(pa_ring_count(&rb, PERF_RECORD_SWITCH), 0);
	pa_ring_unmap(&ra);
	pa_ring_unmap(&rb);
	close(fa);
	close(fb);
}
