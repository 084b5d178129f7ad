#include "perfabi.h"

static volatile int pa_bp_var;

PERFABI_CASE(
	.assertion = "a user-space breakpoint (own address, exclude_kernel) needs no privilege: every identity may open it and it counts the writes",
	.ref = "kernel/events/hw_breakpoint.c hw_breakpoint_parse(): the CAP_SYS_ADMIN check applies to kernel addresses only",
	.covers = "type.BREAKPOINT attr.bp_addr",
	.pmu = "breakpoint",
	.privileged = true,
	.probe = pa_probe_priv,
	.features = "bp-trap",
) {
	struct perf_event_attr attr = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&pa_bp_var,
						 HW_BREAKPOINT_LEN_4);
	int want = pa_expected_errno(PA_NEED_SELF);
	int fd;

	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 5; i++)
		pa_bp_var = i;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), 5);
	close(fd);
}
