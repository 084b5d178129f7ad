#include "perfabi.h"

#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_DATA_PAGE_SIZE reports the size of the page mapping the sample's data address: the base page size for a write (copy-on-write) fault on a present base-page-mapped private page",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE data_page_size (5.11, 8d97e71811aa): \"the size of the page for the data address\"; kernel/events/core.c perf_get_page_size()",
	.covers = "sample.DATA_PAGE_SIZE",
	.min_kernel = "5.11",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	struct pa_ring r;
	struct pa_sample s;
	volatile char *p;
	int fd;

	/* present (the page-cache page, read-only pte): the write below faults on it */
	p = pa_cow_page(0);
	if (!p) {
		pa_fail("mapping a copy-on-write page: %s", pa_errno_name(errno));
		pa_abort();
	}
	attr.sample_type = PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_PAGE_SIZE;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_ring_count(&r, PERF_RECORD_SAMPLE);
	p[8] = 1;
	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		if (s.addr == (uint64_t)(uintptr_t)(p + 8))
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(s.data_page_size, (uint64_t)psz);
}
