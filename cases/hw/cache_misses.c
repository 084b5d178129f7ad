#include "perfabi.h"

/*
 * "Cache misses ... intended to be used in conjunction with
 * PERF_COUNT_HW_CACHE_REFERENCES to calculate cache miss rates": the
 * kernel maps the pair to events whose misses are a subset of the
 * references (Intel: architectural LLC References 0x4f2e and LLC Misses
 * 0x412e; AMD Zen: L2 requests 0xff60 and L2 misses 0x0964; Arm: L1D_CACHE
 * and L1D_CACHE_REFILL). In one group both count over exactly the same
 * intervals, so over a random pointer chase through 32 MiB (which misses
 * every cache level often) the misses are at most the references, plus
 * 1 % + 100 for the counters not starting and stopping in the same cycle.
 */

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_CACHE_MISSES counts cache misses, a part of the "
		     "PERF_COUNT_HW_CACHE_REFERENCES: counted in one group over 1M "
		     "random loads through 32 MiB, the misses are at most the "
		     "references (+ 1 % + 100)",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_CACHE_MISSES "
	       "\"Cache misses. Usually this indicates Last Level Cache misses; "
	       "this is intended to be used in conjunction with the "
	       "PERF_COUNT_HW_CACHE_REFERENCES event to calculate cache miss "
	       "rates\"; ENOENT/EOPNOTSUPP for an unsupported generic event is a SKIP",
	.covers = "hw.CACHE_MISSES type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	pa_hw_part_within_whole(PERF_COUNT_HW_CACHE_REFERENCES, PERF_COUNT_HW_CACHE_MISSES, 100, 100,
				"references, misses");
}
