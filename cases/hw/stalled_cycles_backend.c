#include "perfabi.h"

#include <sys/ioctl.h>

#define BYTES (32u << 20)
#define K 1000000ULL		/* dependent loads */

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
	.assertion = "PERF_COUNT_HW_STALLED_CYCLES_BACKEND counts stalled cycles during retirement: "
		     "counted in one group with PERF_COUNT_HW_CPU_CYCLES over 1M "
		     "random loads through 32 MiB, it is at most the cycles "
		     "(+ 5 % + 10000)",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_STALLED_CYCLES_BACKEND "
	       "\"Stalled cycles during retirement\" (since Linux 3.0); ENOENT/EOPNOTSUPP for "
	       "an unsupported generic event is a SKIP",
	.covers = "hw.STALLED_CYCLES_BACKEND type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int lead = pa_hw_open_member(PERF_COUNT_HW_CPU_CYCLES, -1, PA_HW_GROUP_FMT);
	int stall = pa_hw_open_member(PERF_COUNT_HW_STALLED_CYCLES_BACKEND, lead, PA_HW_GROUP_FMT);
	void *buf = pa_cache_chase_build(BYTES);
	volatile void *end;
	uint64_t v[2];

	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	end = pa_cache_chase(buf, K);
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	(void)end;
	pa_hw_read_group(lead, v, 2, false);
	pa_diag("%llu cycles, %llu stalled during retirement, over %llu random loads",
		(unsigned long long)v[0], (unsigned long long)v[1],
		(unsigned long long)K);
	EXPECT_LE(v[1], v[0] + v[0] / 20 + 10000);
	free(buf);
	close(stall);
	close(lead);
}
