#include "perfabi.h"

static void __attribute__((noinline)) deep(int n)
{
	if (n > 0)
		deep(n - 1);
	else
		pa_touch_pages(1);
	__asm__ volatile("" ::: "memory");	/* no tail call */
}

PERFABI_CASE(
	.assertion = "sample_max_stack limits the number of instruction pointers in a callchain: a deep user stack sampled with sample_max_stack = 2 gives PERF_CONTEXT_USER and at most 2 ips",
	.ref = "perf_event_open(2), sample_max_stack (4.8): \"the maximum number of frame pointers in a callchain\"; kernel/events/callchain.c get_perf_callchain() (context markers are counted apart)",
	.covers = "attr.sample_max_stack sample.CALLCHAIN",
	.min_kernel = "4.8",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;	/* a user callchain: no kernel access needed (a4573a3838ae) */
	attr.sample_max_stack = 2;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_ring_count(&r, PERF_RECORD_SAMPLE);
	deep(20);
	pa_ring_sample(&r, &attr, &s);
	ASSERT_GE(s.var.callchain_nr, 2u);
	EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
	EXPECT_LE(s.var.callchain_nr, 3u);	/* marker + 2 ips */
}
