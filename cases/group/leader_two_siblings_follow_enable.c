#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * Siblings are opened with disabled = 0 but must not count while their
 * disabled leader is off; once the leader is enabled all three count
 * exactly the same page faults (they are scheduled together; the measured
 * path is faulted in beforehand, so the count is the touched pages).
 */
#define TOUCHED	16

PERFABI_CASE(
	.assertion = "a group of a disabled leader and two siblings opened with disabled = 0: the siblings do not count until the leader is enabled, then all three count exactly the same page faults",
	.ref = "perf_event_open(2), disabled: \"the child events will not start until the group leader is enabled\"; Arguments: group_fd",
	.covers = "arg.group_fd attr.disabled",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr lattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr sattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd[3];

	sattr.disabled = 0;
	fd[0] = ASSERT_OPEN(&lattr, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&sattr, 0, -1, fd[0], 0);
	fd[2] = ASSERT_OPEN(&sattr, 0, -1, fd[0], 0);

	pa_touch_pages(TOUCHED);	/* leader off: nobody counts */
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), 0);

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_RESET, 0));	/* warm up ioctl() */
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(pa_read_one(fd[i]), TOUCHED);
}
