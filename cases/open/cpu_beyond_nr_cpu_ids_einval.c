#include "perfabi.h"

#include <limits.h>

PERFABI_CASE(
	.assertion = "a cpu that is not -1 and not below nr_cpu_ids (past the last "
		     "possible CPU, or another negative number) fails with EINVAL",
	.ref = "kernel/events/core.c perf_event_alloc(): (unsigned)cpu >= "
	       "nr_cpu_ids && (!task || cpu != -1) -> -EINVAL; perf_event_open(2) EINVAL",
	.covers = "arg.cpu errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	int nr = pa_nr_cpu_ids();

	if (nr < 1)
		pa_skip("/sys/devices/system/cpu/possible unreadable");
	pa_diag("nr_cpu_ids %d", nr);
	EXPECT_OPEN_FAIL(&attr, 0, nr, -1, 0, EINVAL);
	EXPECT_OPEN_FAIL(&attr, 0, INT_MAX, -1, 0, EINVAL);
	EXPECT_OPEN_FAIL(&attr, 0, -2, -1, 0, EINVAL);
}
