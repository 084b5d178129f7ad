#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_SAMPLE_DATA_SRC on a software event adds a u64 data_src the PMU does not fill; the kernel reports it as PERF_MEM_NA (mem_op NA = 1, lvl NA = 1<<5, snoop NA = 1<<19, lock NA = 1<<24, dtlb NA = 1<<26 in bits 0..32)",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE data_src; kernel/events/core.c perf_prepare_sample(): data->data_src.val = PERF_MEM_NA when the PMU left it",
	.covers = "sample.DATA_SRC",
	.min_kernel = "3.10",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct pa_ring r;
	struct pa_sample s;
	int fd;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_DATA_SRC;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pa_touch_pages(2);
	pa_ring_sample(&r, &attr, &s);
	/* PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) |
	 * PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA)
	 * in bits 0..32; LVLNUM (bits 33..36) joined PERF_MEM_NA later and is
	 * not checked. */
	EXPECT_EQ(s.data_src & ((1ULL << 33) - 1),
		  (uint64_t)(1ULL << 0 | 1ULL << 5 | 1ULL << 19 | 1ULL << 24 | 1ULL << 26));
}
