#include "perfabi.h"

PERFABI_CASE(
	.assertion = "the control page's capabilities word has cap_bit0 = 0 and cap_bit0_is_deprecated = 1 (the split of the old ambiguous bit 0), and compat_version is 0",
	.ref = "perf_event_open(2), MMAP layout: \"cap_bit0_is_deprecated: If set, this bit indicates that the kernel supports the properly separated cap_user_time and cap_user_rdpmc bits\" (3.12)",
	.covers = "mmap.capabilities",
	.min_kernel = "3.12",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	int fd;

	attr.sample_type = PERF_SAMPLE_IP;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	EXPECT_EQ((uint64_t)r.page->cap_bit0, (uint64_t)0u);
	EXPECT_EQ((uint64_t)r.page->cap_bit0_is_deprecated, (uint64_t)1u);
	EXPECT_EQ(r.page->compat_version, 0u);
	EXPECT_EQ((uint64_t)r.page->cap_user_rdpmc, (uint64_t)0u);		/* no rdpmc for a software event */
}
