#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations */

/*
 * A disabled event is off its PMU's counter: PERF_EVENT_IOC_DISABLE
 * (_perf_event_disable() -> __perf_event_disable() -> event_sched_out() ->
 * pmu->del: armpmu_del(), which stops the counter and reads what it held)
 * and a later PERF_EVENT_IOC_ENABLE puts it back with its count where it
 * was (armpmu_start() -> armpmu_event_set_period() counts on from there).
 *
 * Two runs from a RESET, of the same code but for one loop's length:
 * ENABLE, pa_loop3(K), DISABLE, pa_loop3(n), ENABLE, pa_loop3(K), DISABLE,
 * read, once with n = 1 and once with n = 2M. User-space instructions only,
 * on a PMU that counts each one (QEMU -icount shift=0): the two runs count
 * the same instructions, except the 6M - 3 of the longer disabled loop. So
 * the two counts are equal exactly; a counter that ran while disabled
 * would show the 6M. Elsewhere the counts carry skid and the case SKIPs.
 */
static uint64_t run(int fd, uint64_t off)
{
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(K);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_loop3(off);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(K);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	return pa_read_one(fd);
}

PERFABI_CASE(
	.assertion = "a PERF_COUNT_HW_INSTRUCTIONS counter disabled with PERF_EVENT_IOC_DISABLE counts nothing until "
		     "PERF_EVENT_IOC_ENABLE: a 6M-instruction loop run while it is disabled adds exactly 0 to a user-space "
		     "count, on a PMU that counts every instruction",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_DISABLE \"Disables the individual counter\"; kernel/events/core.c "
	       "__perf_event_disable(), event_sched_out(); drivers/perf/arm_pmu.c armpmu_del(), armpmu_start()",
	.covers = "hw.INSTRUCTIONS ioctl.DISABLE ioctl.ENABLE",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t a, b;
	int fd;

	pa_need_exact_pmu();
	fd = pa_hw_open_or_skip(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	pa_loop3(1);
	(void)run(fd, 1);	/* the path once before */
	a = run(fd, 1);
	b = run(fd, 2 * K);
	pa_diag("%llu with 1 iteration while disabled, %llu with %llu", (unsigned long long)a,
		(unsigned long long)b, (unsigned long long)(2 * K));
	EXPECT_EQ(b, a);
	EXPECT_GE(a, 6 * K);	/* the enabled loops were counted */
	close(fd);
}
