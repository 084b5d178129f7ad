#include "perfabi.h"

#include <sys/ioctl.h>

#define K 10000000ULL	/* loop iterations */

/*
 * A loop of K iterations of exactly three instructions retires 3K
 * instructions, whatever the CPU. Counted in user space only
 * (exclude_kernel), the count adds the few user instructions between the
 * ENABLE and DISABLE system calls (tens); 1 % less and 5 % + 10000 more are
 * allowed for the PMU's known imprecision (an interrupt can add one). The count is
 * compared only when the event had a counter the whole time.
 */

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_INSTRUCTIONS counts retired instructions: a "
		     "loop of 10M iterations of exactly 3 instructions, counted in "
		     "user space, retires between 30M - 1 % and 30M + 5 % + 10000",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_INSTRUCTIONS "
	       "\"Retired instructions. Be careful, these can be affected by various "
	       "issues, most notably hardware interrupt counts\"; ENOENT/EOPNOTSUPP "
	       "for an unsupported generic event is a SKIP",
	.covers = "hw.INSTRUCTIONS type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, -1, PA_HW_GROUP_FMT);
	uint64_t n;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(K);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(fd, &n, 1, true);
	pa_diag("%llu instructions over %llu iterations of 3", (unsigned long long)n,
		(unsigned long long)K);
	EXPECT_GE(n, 3 * K - 3 * K / 100);
	EXPECT_LE(n, 3 * K + 3 * K / 20 + 10000);
	close(fd);
}
