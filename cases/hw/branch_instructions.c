#include "perfabi.h"

#include <sys/ioctl.h>

#define K 10000000ULL	/* loop iterations */

/*
 * A loop of K iterations that each end in one conditional branch retires K
 * branch instructions: x86 (Intel BR_INST_RETIRED, AMD retired branches)
 * counts them all; Arm's generic mapping (PC_WRITE_RETIRED) counts the
 * taken ones, K - 1. Counted in user space only (exclude_kernel), the
 * count adds the few branches between the ENABLE and DISABLE system calls
 * (calls and returns of the wrappers); 1 % less and 5 % + 10000 more are
 * allowed for the PMU's imprecision. The
 * count is compared only when the event had a counter the whole time.
 */

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_BRANCH_INSTRUCTIONS counts retired branch "
		     "instructions: a loop of 10M iterations, each ending in one "
		     "conditional branch, counted in user space, retires between "
		     "10M - 1 % and 10M + 5 % + 10000",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_BRANCH_INSTRUCTIONS "
	       "\"Retired branch instructions\"; ENOENT/EOPNOTSUPP for an "
	       "unsupported generic event is a SKIP",
	.covers = "hw.BRANCH_INSTRUCTIONS type.HARDWARE attr.type attr.config",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd = pa_hw_open_member(PERF_COUNT_HW_BRANCH_INSTRUCTIONS, -1, PA_HW_GROUP_FMT);
	uint64_t n;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(K);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(fd, &n, 1, true);
	pa_diag("%llu branches over %llu iterations", (unsigned long long)n,
		(unsigned long long)K);
	EXPECT_GE(n, K - 1 - K / 100);
	EXPECT_LE(n, K + K / 20 + 10000);
	close(fd);
}
