#include "perfabi.h"

static volatile uint64_t var_a;

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_MODIFY_ATTRIBUTES on a breakpoint may change only bp_addr, bp_type, bp_len, disabled and sig_data: a change to any other field is EINVAL and leaves the event as it was",
	.ref = "kernel/events/hw_breakpoint.c modify_user_hw_breakpoint_check(): memcmp of the rest of the attr -> -EINVAL",
	.covers = "ioctl.MODIFY_ATTRIBUTES",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&var_a, 8);
	struct perf_event_attr m;
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	m = a;
	m.exclude_hv = 0;	/* not a breakpoint parameter */
	m.disabled = 0;
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &m), EINVAL);
	m = a;
	m.read_format = PERF_FORMAT_ID;
	m.disabled = 0;
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &m), EINVAL);
	var_a = 1;
	EXPECT_EQ(pa_read_one(fd), 0);	/* still disabled */
	close(fd);
}
