#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * The reverse of sw_sibling_in_hw_group: a pure software group that gets
 * a hardware member is moved to the hardware context as a whole; the open
 * succeeds and every member still counts: the page faults exactly (the
 * measured path is faulted in beforehand), the instructions at least the
 * ITERS loop iterations (each is at least one instruction).
 */
#define TOUCHED	8
#define ITERS	1000000

PERFABI_CASE(
	.assertion = "a hardware event may join a group led by a software event (the kernel moves the pure software group to the hardware context): it opens and all members count (the page faults exactly, the instructions at least the loop's)",
	.ref = "perf_event_open(2), group_fd; kernel/events/core.c perf_event_open(): move_group \"In case the group is a pure software group, and we try to add a hardware event, move the whole group\"",
	.covers = "arg.group_fd read_format.GROUP",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr sw = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr sw2 = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr hw = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(hw),
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	uint64_t v[4];
	int leader, a, b;

	close(pa_hw_open_or_skip(hw.type, hw.config));
	sw.read_format = PERF_FORMAT_GROUP;
	sw2.disabled = 0;
	leader = ASSERT_OPEN(&sw, 0, -1, -1, 0);
	a = ASSERT_OPEN(&sw2, 0, -1, leader, 0);
	b = ASSERT_OPEN(&hw, 0, -1, leader, 0);
	pa_touch_pages(1);	/* warm up the measured path */
	pa_busy_loop(1);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_RESET, 0));
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	pa_busy_loop(ITERS);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(leader, v, 4);
	EXPECT_EQ(v[0], 3);
	EXPECT_EQ(v[1], TOUCHED);
	EXPECT_GT(v[2], 0);
	EXPECT_GE(v[3], ITERS);
	close(a);
	close(b);
}
