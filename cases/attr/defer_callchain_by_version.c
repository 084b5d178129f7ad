#include "perfabi.h"

/*
 * defer_callchain is flag bit 38 since 6.19; before that the bit belonged to
 * __reserved_1 and perf_copy_attr() refused it. The event here is one every
 * identity may open (user-only callchain, exclude_kernel).
 */
PERFABI_CASE(
	.assertion = "attr.defer_callchain on a user-only page-fault sampling event with PERF_SAMPLE_CALLCHAIN is accepted since 6.19 and fails with EINVAL (a __reserved_1 bit) before",
	.ref = "include/uapi/linux/perf_event.h (6.19) defer_callchain \"generate PERF_RECORD_CALLCHAIN_DEFERRED records\"; kernel/events/core.c perf_copy_attr() __reserved_1 -> -EINVAL on <= 6.18",
	.covers = "attr.defer_callchain attr.__reserved_1 errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	bool known = pa_since("6.19", "flag bit 38 is defer_callchain");

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	attr.exclude_callchain_kernel = 1;
	attr.defer_callchain = 1;
	EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, known ? 0 : EINVAL);
}
