#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations */

/*
 * PERF_EVENT_IOC_RESET of a running hardware counter must take the
 * instructions still in the counter with it: _perf_event_reset() reads the
 * event first (perf_event_read() -> armpmu_read() -> armpmu_event_update(),
 * which folds the counter into event->count and moves hw.prev_count up)
 * and then zeroes event->count. hw/ioctl's reset_instructions_running
 * checks this with hw/instructions' bounds; here it is exact.
 *
 * Two runs of the same code: ENABLE, pa_loop3(before), RESET, pa_loop3(after),
 * read (the counter still running), DISABLE. Run A: before = 2M, after = K;
 * run B: before = 1, after = 2K. User-space instructions on a PMU that counts
 * each one (QEMU -icount shift=0): B - A is exactly 3K; any part of the
 * instructions before the RESET left in the count would take up to 6M off.
 */
static uint64_t run(int fd, uint64_t before, uint64_t after)
{
	uint64_t v;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(before);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_loop3(after);
	v = pa_read_one(fd);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	return v;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET of a running PERF_COUNT_HW_INSTRUCTIONS counter drops every instruction counted "
		     "before it: K more iterations of a 3-instruction loop after the RESET add exactly 3K to the count read "
		     "while it runs, whatever ran before the RESET (2M iterations or 1), on a PMU that counts every instruction",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET \"Reset the event count ... to zero\"; kernel/events/core.c "
	       "_perf_event_reset() (perf_event_read() before local64_set(&event->count, 0)); drivers/perf/arm_pmu.c "
	       "armpmu_event_update()",
	.covers = "hw.INSTRUCTIONS ioctl.RESET",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t a, b;
	int fd;

	pa_need_exact_pmu();
	fd = pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	pa_loop3(1);
	(void)run(fd, 1, 1);	/* the path once before */
	a = run(fd, 2 * K, K);
	b = run(fd, 1, 2 * K);
	pa_diag("after the RESET: %llu (%llu before it, %llu after), %llu (1 before, %llu after)",
		(unsigned long long)a, (unsigned long long)(2 * K), (unsigned long long)K,
		(unsigned long long)b, (unsigned long long)(2 * K));
	EXPECT_EQ(b - a, 3 * K);
	close(fd);
}
