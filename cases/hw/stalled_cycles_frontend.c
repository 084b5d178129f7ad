#include "perfabi.h"

/*
 * A stalled-cycles event counts the cycles in which a condition holds
 * (Intel: UOPS_ISSUED / UOPS_DISPATCHED with inv=1 cmask=1; AMD: decoder
 * or dispatch stall cycles; Arm: STALL_FRONTEND / STALL_BACKEND): at most
 * one per cycle. In one group with PERF_COUNT_HW_CPU_CYCLES both count
 * over exactly the same intervals, so over a pointer chase through 32 MiB
 * (which stalls on memory) the stalled cycles are at most the cycles, plus
 * 5 % + 10000 for events counted on a slightly different clock or not
 * started in the same cycle.
 */

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND counts stalled cycles during issue: "
		     "counted in one group with PERF_COUNT_HW_CPU_CYCLES over 1M "
		     "random loads through 32 MiB, it is at most the cycles "
		     "(+ 5 % + 10000)",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_STALLED_CYCLES_FRONTEND "
	       "\"Stalled cycles during issue\" (since Linux 3.0); ENOENT/EOPNOTSUPP for "
	       "an unsupported generic event is a SKIP",
	.covers = "hw.STALLED_CYCLES_FRONTEND type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	pa_hw_part_within_whole(PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 20, 10000,
				"cycles, stalled during issue");
}
