#include "perfabi.h"

/* An exec'd image must not get SIGTRAPs it did not ask for: sigtrap
 * events have to go away at exec. */
PERFABI_CASE(
	.assertion = "attr.sigtrap without attr.remove_on_exec fails with EINVAL",
	.ref = "kernel/events/core.c perf_copy_attr(): \"if (attr->sigtrap && !attr->remove_on_exec) goto invalid\" (5.13, 97ba62b27867)",
	.covers = "attr.sigtrap attr.remove_on_exec errno.EINVAL",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);

	attr.disabled = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 0;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
