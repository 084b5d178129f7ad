#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * PERF_EVENT_IOC_RESET of a running hardware counter. The count of a
 * hardware event lives in two places: event->count, and the part still in
 * the counter since the last read (hw.prev_count). _perf_event_reset()
 * first reads the event (perf_event_read() -> pmu->read:
 * x86_perf_event_update(), armpmu_event_update(), which fold the counter
 * into event->count and move prev_count up), then sets event->count to 0.
 * Without that read the pre-RESET delta would still be in the counter and
 * come back at the next read.
 *
 * PERF_COUNT_HW_INSTRUCTIONS in user space, the leader of a group of one
 * (PA_HW_GROUP_FMT). ENABLE, pa_loop3(1M) (3M instructions, none read),
 * RESET, read: only the user instructions between the RESET's return and
 * the read's system call, a few tens, at most hw/instructions' allowance
 * of 10000 for the instructions around a loop (the 3M would be far more).
 * Then pa_loop3(1M) more: the count grows by 3M - 1 % .. 3M + 5 % + 10000
 * (hw/instructions' rule), not by 6M. DISABLE, RESET of the stopped event:
 * exactly 0. time_enabled is not reset: right after the first RESET it
 * holds at least half the thread's CPU time over the first loop (the
 * PA_WORKED_NS_MIN rule), and it only grows across both RESETs.
 * A group that did not have the counter throughout SKIPs.
 */
#define K	1000000ULL	/* pa_loop3() iterations: 3M instructions */
#define AROUND	10000ULL	/* user instructions around a loop */

/* count and time_enabled of the group of one led by fd, in one read */
static uint64_t read_ct(int fd, uint64_t *enabled)
{
	uint64_t b[4];

	pa_read_u64(fd, b, 4);
	ASSERT_EQ(b[0], 1);
	*enabled = b[1];
	return b[3];
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_RESET of a running PERF_COUNT_HW_INSTRUCTIONS counter sets its count to zero, the instructions "
		     "before it included: after a 3M-instruction loop the count read right after the RESET is at most 10000, a further 3M "
		     "loop adds 3M (- 1 %, + 5 % + 10000), and a RESET of the disabled counter reads 0; time_enabled is never reset",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_RESET: \"Reset the event count specified by the file descriptor argument to zero. "
	       "This resets only the counts; there is no way to reset the multiplexing time_enabled or time_running values\"; "
	       "kernel/events/core.c _perf_event_reset() (perf_event_read() before local64_set(count, 0)); arch/x86/events/core.c "
	       "x86_perf_event_update(); drivers/perf/arm_pmu.c armpmu_event_update()",
	.covers = "ioctl.RESET type.HARDWARE hw.INSTRUCTIONS read_format.TOTAL_TIME_ENABLED",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	int fd = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, -1, PA_HW_GROUP_FMT);
	uint64_t c0, c1, c2, c3, e0, e1, e2, e3, t0, t1;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	t0 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	pa_loop3(K);			/* not read: all of it in the counter */
	t1 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	c0 = read_ct(fd, &e0);
	pa_loop3(K);
	c1 = read_ct(fd, &e1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	c2 = read_ct(fd, &e2);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	c3 = read_ct(fd, &e3);
	/* the times are not reset: SKIP if it ever lost the counter */
	pa_hw_read_group(fd, &c3, 1, true);
	pa_diag("%llu right after the RESET, %llu after 3M more (+%llu), %llu at DISABLE, %llu after a RESET then; time_enabled %llu %llu %llu %llu (first loop: %llu ns of CPU)",
		(unsigned long long)c0, (unsigned long long)c1, (unsigned long long)(c1 - c0), (unsigned long long)c2, (unsigned long long)c3,
		(unsigned long long)e0, (unsigned long long)e1, (unsigned long long)e2, (unsigned long long)e3, (unsigned long long)(t1 - t0));

	EXPECT_LE(c0, AROUND);				/* the 3M before it are gone */
	EXPECT_GE(c1 - c0, 3 * K - 3 * K / 100);	/* counts on */
	EXPECT_LE(c1 - c0, 3 * K + 3 * K / 20 + AROUND);	/* from zero */
	EXPECT_GE(c2, c1);
	EXPECT_EQ(c3, 0);				/* a stopped counter: exactly 0 */
	EXPECT_GE(e0, (t1 - t0) / 2);			/* times are not reset */
	EXPECT_GE(e1, e0);
	EXPECT_GE(e2, e1);
	EXPECT_EQ(e3, e2);
	close(fd);
}
