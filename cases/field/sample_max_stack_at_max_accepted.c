#include "perfabi.h"

/*
 * sample_max_stack above perf_event_max_stack is refused (EOVERFLOW); equal
 * to it is accepted, and the event then samples with callchains: a user
 * page fault's callchain (exclude_callchain_kernel) is PERF_CONTEXT_USER
 * followed first by the faulting instruction, the sample's ip.
 */
PERFABI_CASE(
	.assertion = "PERF_SAMPLE_CALLCHAIN with sample_max_stack equal to /proc/sys/kernel/perf_event_max_stack is accepted, and a page-fault sample's callchain is PERF_CONTEXT_USER then the sample's ip",
	.ref = "perf_event_open(2), sample_max_stack and EOVERFLOW (only larger is refused); kernel/events/callchain.c get_callchain_buffers(), get_perf_callchain() (user context marker, then perf_callchain_user() stores the user ip first)",
	.covers = "attr.sample_max_stack sample.CALLCHAIN",
	.min_kernel = "4.8",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long max = pa_sysctl_long("kernel/perf_event_max_stack");
	struct pa_sample s;
	struct pa_ring r;
	int fd, n = 0;

	if (max < 1 || max > 65535)
		pa_skip("kernel.perf_event_max_stack is unreadable or out of u16 range (%ld)", max);
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;
	attr.sample_max_stack = (uint16_t)max;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_count_over(fd, pa_work_pages, 4);
	while (pa_ring_head(&r) != r.tail && n < 8) {
		pa_ring_sample(&r, &attr, &s);
		n++;
		ASSERT_GE(s.var.callchain_nr, 2);
		EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
		EXPECT_EQ(s.callchain[1], s.ip);
	}
	EXPECT_GE(n, 4);
	pa_ring_unmap(&r);
	close(fd);
}
