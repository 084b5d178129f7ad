#include "perfabi.h"

PERFABI_CASE(
	.assertion = "perf_cpu_time_max_percent accepts 0..100 (101 is EINVAL); at 0 (throttling disabled) writes to perf_event_max_sample_rate fail with EINVAL",
	.ref = "Documentation/admin-guide/sysctl/kernel.rst perf_cpu_time_max_percent; kernel/events/core.c perf_event_max_sample_rate_handler(), perf_cpu_time_max_percent_handler()",
	.alone = true,
	.covers = "sysctl.perf_cpu_time_max_percent sysctl.perf_event_max_sample_rate",
	.root = true,
) {
	char buf[32];

	EXPECT_ERRNO(pa_sysctl_write("kernel/perf_cpu_time_max_percent", "101"), EINVAL);
	ASSERT_OK(pa_sysctl_write("kernel/perf_cpu_time_max_percent", "0"));
	EXPECT_EQ(pa_sysctl_long("kernel/perf_cpu_time_max_percent"), 0);
	ASSERT_OK(pa_sysctl_read("kernel/perf_event_max_sample_rate", buf, sizeof(buf)));
	EXPECT_ERRNO(pa_sysctl_write("kernel/perf_event_max_sample_rate", buf), EINVAL);
	ASSERT_OK(pa_sysctl_write("kernel/perf_cpu_time_max_percent", "25"));
	EXPECT_OK(pa_sysctl_write("kernel/perf_event_max_sample_rate", buf));
}
