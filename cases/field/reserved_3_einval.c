#include "perfabi.h"

/*
 * Bit 31 of the u32 at offset 116: part of __reserved_3 on every kernel
 * (the whole word before aux_action, bits 3..31 since), so EINVAL everywhere.
 */
PERFABI_CASE(
	.assertion = "a set bit in __reserved_3 (bit 31 of the word at offset 116) fails with EINVAL on every kernel",
	.ref = "kernel/events/core.c perf_copy_attr(): __reserved_3 must be 0; include/uapi/linux/perf_event.h aux_action union (6.13)",
	.covers = "attr.__reserved_3 errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	attr.aux_action = 1U << 31;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
