#include "perfabi.h"

/* Bit 63 of the flag word has been reserved on every kernel. */
PERFABI_CASE(
	.assertion = "the highest bit of the flag word (bit 63, in __reserved_1 on every kernel) set makes perf_event_open fail with EINVAL",
	.ref = "kernel/events/core.c perf_copy_attr(): \"if (attr->__reserved_1 || ...) return -EINVAL\"; perf_event_open(2), EINVAL",
	.covers = "attr.__reserved_1 errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	pa_flag_word_set(&attr, 63);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
