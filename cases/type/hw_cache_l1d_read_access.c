#include "perfabi.h"

static void read_memory(int kib)
{
	static volatile uint64_t buf[1 << 14];
	uint64_t sum = 0;

	for (int r = 0; r < kib; r++)
		for (size_t i = 0; i < sizeof(buf) / sizeof(buf[0]); i++)
			sum += buf[i];
	buf[0] = sum;
}

PERFABI_CASE(
	.assertion = "PERF_TYPE_HW_CACHE with config L1D | READ << 8 | ACCESS << 16 "
		     "counts level-1 data cache reads: reading memory counts > 0",
	.ref = "perf_event_open(2), PERF_TYPE_HW_CACHE: config = (perf_hw_cache_id) "
	       "| (perf_hw_cache_op_id << 8) | (perf_hw_cache_op_result_id << 16)",
	.covers = "type.HW_CACHE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t cfg = PERF_COUNT_HW_CACHE_L1D |
		       (uint64_t)PERF_COUNT_HW_CACHE_OP_READ << 8 |
		       (uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16;
	int fd = pa_hw_open_or_skip(PERF_TYPE_HW_CACHE, cfg);
	uint64_t n = pa_count_over(fd, read_memory, 64);

	pa_diag("%llu L1D read accesses", (unsigned long long)n);
	EXPECT_GT(n, 0);
}
