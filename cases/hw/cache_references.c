#include "perfabi.h"

#include <sys/ioctl.h>

#define BYTES (32u << 20)	/* more than any L2 cache */
#define K 1000000ULL		/* dependent loads */

/*
 * The kernel maps PERF_COUNT_HW_CACHE_REFERENCES to the accesses of one
 * cache level: Intel the last level (architectural LLC References 0x4f2e:
 * the requests that missed L2), AMD Zen L2 requests (0xff60), Arm L1D
 * accesses (L1D_CACHE). A pointer chase through the lines of 32 MiB in a
 * random cycle makes K dependent loads that no prefetcher predicts and that
 * miss any L2 nearly every time: at least K/2 references at every level.
 * At most 16 per load (the line, an adjacent-line prefetch, page-table
 * walks) plus 100000: far below the cycles such a chase takes (an event
 * that counted cycles would exceed it).
 */

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_CACHE_REFERENCES counts cache accesses: 1M "
		     "dependent loads of random lines in 32 MiB make between 500000 "
		     "and 16M + 100000 references",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_CACHE_REFERENCES "
	       "\"Cache accesses. Usually this indicates Last Level Cache "
	       "accesses\"; ENOENT/EOPNOTSUPP for an unsupported generic event "
	       "is a SKIP",
	.covers = "hw.CACHE_REFERENCES type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd = pa_hw_open_member(PERF_COUNT_HW_CACHE_REFERENCES, -1, PA_HW_GROUP_FMT);
	void *buf = pa_cache_chase_build(BYTES);
	volatile void *end;
	uint64_t n;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	end = pa_cache_chase(buf, K);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	(void)end;
	pa_hw_read_group(fd, &n, 1, true);
	pa_diag("%llu references over %llu random loads", (unsigned long long)n,
		(unsigned long long)K);
	EXPECT_GE(n, K / 2);
	EXPECT_LE(n, 16 * K + 100000);
	free(buf);
	close(fd);
}
