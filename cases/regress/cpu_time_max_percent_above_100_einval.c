#include "perfabi.h"

#include <limits.h>

/*
 * kernel.perf_cpu_time_max_percent is a percentage: 1572e45a924f made its
 * handler proc_dointvec_minmax() with the table's 0..100 bounds (before it
 * plain proc_dointvec() took any int, and a large value overflowed the
 * derived sample-rate limits). A refused write leaves the value as it was.
 * 0 and 100 are legal but switch throttling off, so the legal write here
 * is 50 (restored by the harness).
 */
static void expect_refused(const char *value, long before)
{
	errno = 0;
	if (!EXPECT_ERRNO(pa_sysctl_write("kernel/perf_cpu_time_max_percent", value), EINVAL))
		pa_diag("writing \"%s\" was not refused", value);
	EXPECT_EQ(pa_sysctl_long("kernel/perf_cpu_time_max_percent"), before);
}

PERFABI_CASE(
	.assertion = "kernel.perf_cpu_time_max_percent accepts only 0..100: writing 101, 200, -1 or INT_MAX fails with EINVAL and leaves the value unchanged, while 50 is stored",
	.ref = "\"perf/core: Fix the perf_cpu_time_max_percent check\" 1572e45a924f (v4.11); kernel/events/core.c perf_cpu_time_max_percent_handler(); Documentation/admin-guide/sysctl/kernel.rst perf_cpu_time_max_percent",
	.alone = true,
	.covers = "sysctl.perf_cpu_time_max_percent",
	.fix = { .commit = "1572e45a924f", .subject = "perf/core: Fix the perf_cpu_time_max_percent check", .release = "4.11" },
	.root = true,
) {
	char buf[32];
	long v;

	ASSERT_OK(pa_sysctl_write("kernel/perf_cpu_time_max_percent", "50"));
	EXPECT_EQ(pa_sysctl_long("kernel/perf_cpu_time_max_percent"), 50);
	expect_refused("101", 50);
	expect_refused("200", 50);
	expect_refused("-1", 50);
	snprintf(buf, sizeof(buf), "%d", INT_MAX);
	expect_refused(buf, 50);
	v = pa_sysctl_long("kernel/perf_cpu_time_max_percent");
	pa_diag("value after the refused writes: %ld", v);
}
