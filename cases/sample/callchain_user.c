#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_CALLCHAIN of a user-only (exclude_kernel) sample is {nr, ips[nr]} starting with the PERF_CONTEXT_USER marker followed by the user instruction pointer, with no kernel context",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"nr, ips[nr]: If PERF_SAMPLE_CALLCHAIN is enabled, then a 64-bit number is included which indicates how many following 64-bit instruction pointers will follow\"; include/uapi/linux/perf_event.h enum perf_callchain_context",
	.covers = "sample.CALLCHAIN",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;	/* a user callchain: no kernel access needed (a4573a3838ae) */
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	ASSERT_GE(s.var.callchain_nr, 2u);
	EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
	EXPECT_EQ(s.callchain[1], s.ip);
	for (uint64_t i = 1; i < s.var.callchain_nr; i++)
		EXPECT_LT(s.callchain[i], PERF_CONTEXT_MAX);
}
