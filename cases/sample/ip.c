#include "perfabi.h"

extern char __executable_start[], etext[];

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_IP gives the instruction pointer of the sampled user code: for a page fault in the program, an address inside its text, with misc cpumode PERF_RECORD_MISC_USER",
	.ref = "perf_event_open(2), MMAP layout, PERF_RECORD_SAMPLE: \"ip: If PERF_SAMPLE_IP is enabled, then a 64-bit instruction pointer value is included\"; misc: PERF_RECORD_MISC_USER",
	.covers = "sample.IP record.SAMPLE",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(4);	/* faults on the store in pa_touch_pages() */
	h = pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
	EXPECT_GE(s.ip, (uint64_t)(uintptr_t)__executable_start);
	EXPECT_LT(s.ip, (uint64_t)(uintptr_t)etext);
}
