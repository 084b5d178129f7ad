#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * A context-switches event overflows inside the switch itself
 * (perf_event_task_sched_out() counts it before the task's events are
 * scheduled out). When that overflow uses up the REFRESH count, the
 * disable cannot wait for the irq_work: event_sched_out() of the same
 * switch sees pending_disable and leaves the event OFF. Either way the
 * documented result is exact: the count stops at refresh * sample_period
 * however many more switches follow, and another REFRESH re-arms it.
 * Each 1 ms sleep blocks, so it is at least one switch.
 */
#define PERIOD	4
#define SLEEPS	(4 * PERIOD)

static const char *kernel_counting_ok(void)
{
	static char why[96];

	/* a switch happens in the kernel: exclude_kernel would count none */
	if (!pa_expected_errno(PA_NEED_KERNEL))
		return NULL;
	snprintf(why, sizeof(why), "context switches are counted in the "
		 "kernel, which paranoid %d forbids this identity", pa_paranoid());
	return why;
}

static void sleeps(void)
{
	for (int i = 0; i < SLEEPS; i++)
		pa_sleep_ms(1);
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_REFRESH(1) on a context-switches sampling event: the event disables itself at the overflow, so its count stops at exactly sample_period (the overflowing switch) however many switches follow; REFRESH(1) again adds exactly one more period",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_REFRESH: \"the event is disabled after the given number of overflows\"; kernel/events/core.c __perf_event_overflow() -> perf_event_disable_inatomic(), event_sched_out() pending_disable",
	.alone = true,
	.covers = "ioctl.REFRESH sw.CONTEXT_SWITCHES attr.sample_period",
	.probe = kernel_counting_ok,
) {
	struct perf_event_attr attr =
		pa_sw_sampling_attr(PERF_COUNT_SW_CONTEXT_SWITCHES, PERIOD);
	int fd;

	attr.disabled = 1;
	attr.exclude_kernel = 0;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_EQ(pa_read_one(fd), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	sleeps();
	EXPECT_EQ(pa_read_one(fd), PERIOD);
	sleeps();
	EXPECT_EQ(pa_read_one(fd), PERIOD);	/* stays disabled */

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	sleeps();
	EXPECT_EQ(pa_read_one(fd), 2 * PERIOD);
	close(fd);
}
