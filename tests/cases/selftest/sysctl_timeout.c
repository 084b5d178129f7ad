#include "perfabi.h"
/* Harness self-test: a sysctl changed by a body that then hangs is
 * restored after the timeout kills it. */
PERFABI_CASE(.assertion = "selftest: changes a sysctl and hangs", .root = true, .timeout = 1) {
	long rate = pa_sysctl_long("kernel/perf_event_max_sample_rate");
	char v[32];

	snprintf(v, sizeof(v), "%ld", rate - 1);
	ASSERT_OK(pa_sysctl_write("kernel/perf_event_max_sample_rate", v));
	for (;;)
		pause();
}
