#include "perfabi.h"

#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "mapping only the control page (no data pages) is allowed: the mmap succeeds and the page shows an empty data area (data_head 0)",
	.ref = "perf_event_open(2), MMAP layout: \"The mmap size should be 1+2^n pages, where the first page is a metadata page\"; kernel/events/core.c perf_mmap(): nr_pages == 0 is valid (metadata only)",
	.covers = "mmap.size mmap.data_head",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *pg;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pg = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_TRUE(pg != MAP_FAILED);
	pa_touch_pages(4);
	EXPECT_EQ(pg->data_head, 0u);
	if (pa_since("4.1", "data_offset/data_size in the control page"))
		EXPECT_EQ(pg->data_size, 0u);
}
