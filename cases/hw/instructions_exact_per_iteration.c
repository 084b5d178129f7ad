#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* loop iterations */

/*
 * Where the PMU counts every retired instruction (QEMU -icount, declared
 * by the VM runner), a loop of exactly three instructions adds exactly
 * three counts per iteration: 2K iterations count exactly 3K more than K,
 * the enable and disable calls' own user-space instructions cancelling
 * out. Counted in user space only, where no interrupt adds anything.
 */

PERFABI_CASE(
	.assertion = "PERF_COUNT_HW_INSTRUCTIONS counts retired instructions: "
		     "1M more iterations of a loop of exactly 3 instructions add "
		     "exactly 3M to a user-space count, on a PMU that counts "
		     "every instruction",
	.ref = "perf_event_open(2), PERF_TYPE_HARDWARE: PERF_COUNT_HW_INSTRUCTIONS "
	       "\"Retired instructions\"; exclude_kernel; exact only where the "
	       "machine counts exactly (QEMU -icount shift=0)",
	.covers = "hw.INSTRUCTIONS attr.exclude_kernel",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd;

	pa_need_exact_pmu();
	fd = pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	EXPECT_EQ(pa_hw_loop_delta(fd, K), 3 * K);
	close(fd);
}
