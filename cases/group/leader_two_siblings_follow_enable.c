#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * Siblings are opened with disabled = 0 but must not count while their
 * disabled leader is off; once the leader is enabled all three count the
 * same page faults (they are scheduled together).
 */
PERFABI_CASE(
	.assertion = "a group of a disabled leader and two siblings opened with disabled = 0: the siblings do not count until the leader is enabled, then all three count together",
	.ref = "perf_event_open(2), disabled: \"the child events will not start until the group leader is enabled\"; Arguments: group_fd",
	.covers = "arg.group_fd attr.disabled",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr lattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr sattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v[3][1];
	int fd[3];

	sattr.disabled = 0;
	fd[0] = ASSERT_OPEN(&lattr, 0, -1, -1, 0);
	fd[1] = ASSERT_OPEN(&sattr, 0, -1, fd[0], 0);
	fd[2] = ASSERT_OPEN(&sattr, 0, -1, fd[0], 0);

	pa_touch_pages(16);		/* leader off: nobody counts */
	for (int i = 0; i < 3; i++) {
		pa_read_u64(fd[i], v[i], 1);
		EXPECT_EQ(v[i][0], 0);
	}

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(16);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	for (int i = 0; i < 3; i++) {
		pa_read_u64(fd[i], v[i], 1);
		EXPECT_GE(v[i][0], 16);
	}
	EXPECT_EQ(v[1][0], v[0][0]);
	EXPECT_EQ(v[2][0], v[0][0]);
}
