#include "perfabi.h"

/*
 * __reserved_1 is whatever the flag word has left above the last defined
 * bit: bits 38-63 until 6.18, bits 40-63 since defer_callchain and
 * defer_output (6.19) took 38 and 39. perf_copy_attr() rejects any set
 * reserved bit before anything else looks at the attr.
 */
PERFABI_CASE(
	.assertion = "the lowest bit of __reserved_1 (bit 38 before 6.19, bit 40 since) set in the flag word makes perf_event_open fail with EINVAL",
	.ref = "kernel/events/core.c perf_copy_attr(): \"if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3) return -EINVAL\"; include/uapi/linux/perf_event.h __reserved_1; perf_event_open(2), EINVAL",
	.covers = "attr.__reserved_1 errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int bit = pa_since("6.19", "defer_callchain/defer_output take flag bits 38-39; __reserved_1 starts at bit 40") ? 40 : 38;

	pa_flag_word_set(&attr, bit);
	pa_diag("setting flag bit %d", bit);
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINVAL);
}
