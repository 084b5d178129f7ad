#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * The software member counts exactly the touched pages (the measured path
 * is faulted in beforehand); the instructions leader at least the ITERS
 * loop iterations (each is at least one instruction).
 */
#define TOUCHED	8
#define ITERS	1000000

PERFABI_CASE(
	.assertion = "a software event may join a group led by a hardware event: it opens, and a group read returns both values (the page faults exactly, the instructions at least the loop's)",
	.ref = "perf_event_open(2), group_fd; kernel/events/core.c perf_event_open(): \"Allow the addition of software events to hw groups\"",
	.covers = "arg.group_fd read_format.GROUP",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr hw = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(hw),
		.config = PERF_COUNT_HW_INSTRUCTIONS, .disabled = 1,
		.exclude_kernel = 1, .exclude_hv = 1,
		.read_format = PERF_FORMAT_GROUP,
	};
	struct perf_event_attr sw = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t v[3];
	int leader, sib;

	sw.disabled = 0;
	leader = pa_hw_open_or_skip(hw.type, hw.config);
	close(leader);
	leader = ASSERT_OPEN(&hw, 0, -1, -1, 0);
	sib = ASSERT_OPEN(&sw, 0, -1, leader, 0);
	pa_touch_pages(1);	/* warm up the measured path */
	pa_busy_loop(1);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_RESET, 0));
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(TOUCHED);
	pa_busy_loop(ITERS);
	ASSERT_OK(ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(leader, v, 3);
	EXPECT_EQ(v[0], 2);
	EXPECT_GE(v[1], ITERS);
	EXPECT_EQ(v[2], TOUCHED);
	close(sib);
}
