#include "perfabi.h"

/*
 * Finding: kernel.rst describes perf_cpu_time_max_percent 1-100 as "attempt
 * to throttle perf's sample rate to this percentage of CPU" ("Even if this
 * is set to 100, you may still see sample throttling if this length is
 * exceeded") and only 0 as "Disable the mechanism". The code treats 100
 * like 0: perf_cpu_time_max_percent_handler() sets perf_sample_allowed_ns to
 * 0 (perf_sample_event_took() then returns at once: the kernel never lowers
 * the rate) for both, and perf_event_max_sample_rate_handler() refuses
 * every write while the value is 0 or 100 ("If throttling is disabled don't
 * allow the write"). So at 100 a write of perf_event_max_sample_rate fails
 * with EINVAL, at 99 the same write succeeds. (0 and 101:
 * sample_rate_unwritable_when_throttling_off.)
 */
PERFABI_CASE(
	.assertion = "perf_cpu_time_max_percent = 100 disables the throttling "
		     "mechanism like 0: while it is 100 a write to "
		     "perf_event_max_sample_rate fails with EINVAL; at 99 the same "
		     "write succeeds",
	.ref = "Documentation/admin-guide/sysctl/kernel.rst perf_cpu_time_max_percent; "
	       "kernel/events/core.c perf_cpu_time_max_percent_handler() "
	       "(\"== 100 || == 0\": perf_sample_allowed_ns = 0), "
	       "perf_event_max_sample_rate_handler()",
	.alone = true,
	.covers = "sysctl.perf_cpu_time_max_percent sysctl.perf_event_max_sample_rate",
	.root = true,
) {
	char rate[32];

	ASSERT_OK(pa_sysctl_read("kernel/perf_event_max_sample_rate", rate, sizeof(rate)));
	ASSERT_OK(pa_sysctl_write("kernel/perf_cpu_time_max_percent", "100"));
	EXPECT_EQ(pa_sysctl_long("kernel/perf_cpu_time_max_percent"), 100);
	EXPECT_ERRNO(pa_sysctl_write("kernel/perf_event_max_sample_rate", rate), EINVAL);
	ASSERT_OK(pa_sysctl_write("kernel/perf_cpu_time_max_percent", "99"));
	EXPECT_OK(pa_sysctl_write("kernel/perf_event_max_sample_rate", rate));
}
