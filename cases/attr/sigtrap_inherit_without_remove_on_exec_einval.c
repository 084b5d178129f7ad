#include "perfabi.h"

/* The sigtrap/remove_on_exec rule is not relaxed for inherited events:
 * children inherit the event and would carry it across their own exec. */
PERFABI_CASE(
	.assertion = "attr.inherit with attr.sigtrap but without attr.remove_on_exec fails with EINVAL",
	.ref = "kernel/events/core.c perf_copy_attr(): \"if (attr->sigtrap && !attr->remove_on_exec) goto invalid\" (5.13)",
	.covers = "attr.sigtrap attr.inherit errno.EINVAL",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1000);

	attr.disabled = 1;
	attr.inherit = 1;
	attr.inherit_thread = 1;
	attr.sigtrap = 1;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
