#include "perfabi.h"

static volatile uint64_t target;

PERFABI_CASE(
	.assertion = "a HW_BREAKPOINT_W watchpoint (bp_len 8) on a variable counts exactly the writes to it",
	.ref = "perf_event_open(2), type PERF_TYPE_BREAKPOINT; bp_type HW_BREAKPOINT_W \"Count when we write the memory location\"",
	.covers = "type.BREAKPOINT attr.bp_type attr.bp_addr attr.bp_len",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	uint64_t sink = 0;
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 1000; i++)
		target = (uint64_t)i;
	for (int i = 0; i < 500; i++)
		sink += target;		/* reads: not counted */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 1000);
	pa_diag("sink %llu", (unsigned long long)sink);
	close(fd);
}
