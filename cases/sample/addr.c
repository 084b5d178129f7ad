#include "perfabi.h"

#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_ADDR of a page-fault sample is the faulting address",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE: \"addr: If PERF_SAMPLE_ADDR is enabled, then a 64-bit address is included. This is usually the address of a tracepoint, breakpoint, or software event\"; arch/x86/mm/fault.c perf_sw_event(PERF_COUNT_SW_PAGE_FAULTS, 1, regs, address)",
	.covers = "sample.ADDR",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct pa_ring r;
	struct pa_sample s;
	volatile char *p;
	int fd;

	p = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	attr.sample_type = PERF_SAMPLE_ADDR;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_ring_count(&r, PERF_RECORD_SAMPLE);
	p[123] = 1;
	pa_ring_sample(&r, &attr, &s);
	EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)(p + 123));
}
