#include "perfabi.h"

static volatile uint64_t var_a, var_b;

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_MODIFY_ATTRIBUTES on a breakpoint event moves it to a new bp_addr: later writes to the new variable count, writes to the old one no longer do",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_MODIFY_ATTRIBUTES (since Linux 4.17): \"Currently only breakpoint events can have attributes modified\"",
	.covers = "ioctl.MODIFY_ATTRIBUTES type.BREAKPOINT attr.bp_addr",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&var_a, 8);
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 10; i++)
		var_a = (uint64_t)i;
	EXPECT_EQ(pa_read_one(fd), 10);
	a.bp_addr = (uint64_t)(uintptr_t)&var_b;
	a.disabled = 0;	/* the new attr's disabled applies too */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &a));
	for (int i = 0; i < 20; i++)
		var_b = (uint64_t)i;
	for (int i = 0; i < 30; i++)
		var_a = (uint64_t)i;
	EXPECT_EQ(pa_read_one(fd), 10 + 20);
	close(fd);
}
