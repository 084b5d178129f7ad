#include "perfabi.h"

#include <stddef.h>

PERFABI_CASE(
	.assertion = "the control page of a fresh mapping has version 0 and compat_version 0, and size = the bytes of struct perf_event_mmap_page the kernel fills (offsetof(..., __reserved) = 96 on 6.1+, which have time_cycles/time_mask)",
	.ref = "perf_event_open(2), MMAP layout: \"version: Version number of this structure\", \"compat_version: The lowest version this is compatible with\"; kernel/events/core.c perf_event_init_userpage(): userpg->size = offsetof(struct perf_event_mmap_page, __reserved), version never written",
	.covers = "mmap.capabilities",
	.min_kernel = "6.1",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	attr.disabled = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	EXPECT_EQ(r.page->version, 0u);
	EXPECT_EQ(r.page->compat_version, 0u);
	EXPECT_EQ(r.page->size, (uint32_t)offsetof(struct perf_event_mmap_page, __reserved));
	EXPECT_EQ(r.page->size, 96u);
}
