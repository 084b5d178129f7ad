#include "perfabi.h"

#include <sys/ioctl.h>
#include <time.h>

/*
 * The other side of perf_group_detach(): a member opened enabled
 * (disabled = 0) under a leader that is off counts nothing, but once the
 * leader is closed it is an enabled singleton event of its own and
 * counts. The close need not put it on the CPU at once (6.1 to 6.18 do
 * not reschedule the context there): it goes on the next time the task's
 * events are scheduled in. So the case sleeps (the task is switched out
 * and in) before the counted touches, and asserts only the count after
 * that, not when between the close and the sleep counting began (no
 * fault happens there).
 */
#define LEADER_OFF	8
#define AFTER_CLOSE	16

static void nap(void)
{
	struct timespec ts = { 0, 1000000 };	/* 1 ms: a context switch */

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

PERFABI_CASE(
	.assertion = "an enabled member of a disabled group counts nothing while its leader is off, and after the leader is closed it is an enabled singleton event that counts on its own (once the task's events were scheduled in again)",
	.ref = "kernel/events/core.c perf_group_detach(): \"If this was a group event with sibling events then upgrade the siblings to singleton events\"; perf_event_open(2), PERF_EVENT_IOC_DISABLE: \"while the group leader is disabled, none of the counters in the group will count\"",
	.covers = "arg.group_fd attr.disabled",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr l = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr s = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int leader, member, spare;

	s.disabled = 0;
	leader = ASSERT_OPEN(&l, 0, -1, -1, 0);
	member = ASSERT_OPEN(&s, 0, -1, leader, 0);

	pa_touch_pages(1);	/* warm up the measured path, close() included */
	spare = ASSERT_OK(dup(leader));
	ASSERT_OK(close(spare));
	nap();
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_RESET, 0));

	pa_touch_pages(LEADER_OFF);
	EXPECT_EQ(pa_read_one(member), 0);

	ASSERT_OK(close(leader));
	nap();
	pa_touch_pages(AFTER_CLOSE);
	EXPECT_EQ(pa_read_one(member), AFTER_CLOSE);
	close(member);
}
