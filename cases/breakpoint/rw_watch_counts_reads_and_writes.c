#include "perfabi.h"

static volatile uint64_t target;

PERFABI_CASE(
	.assertion = "a HW_BREAKPOINT_RW watchpoint counts both reads and writes of the location",
	.ref = "perf_event_open(2), bp_type HW_BREAKPOINT_RW \"Count when we read or write the memory location\"",
	.covers = "type.BREAKPOINT attr.bp_type",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_RW, (const void *)&target, HW_BREAKPOINT_LEN_8);
	uint64_t sink = 0;
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 300; i++)
		target = (uint64_t)i;
	for (int i = 0; i < 200; i++)
		sink += target;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 500);
	pa_diag("sink %llu", (unsigned long long)sink);
	close(fd);
}
