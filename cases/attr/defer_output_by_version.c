#include "perfabi.h"

/*
 * defer_output (bit 39) asks for PERF_RECORD_CALLCHAIN_DEFERRED side-band
 * records on an event that does not itself sample; new in 6.19. Before,
 * bit 39 was part of __reserved_1.
 */
PERFABI_CASE(
	.assertion = "attr.defer_output on a user-only counting software event is accepted since 6.19 and fails with EINVAL (a __reserved_1 bit) before",
	.ref = "include/uapi/linux/perf_event.h (6.19) defer_output \"output PERF_RECORD_CALLCHAIN_DEFERRED records\"; kernel/events/core.c perf_copy_attr() __reserved_1 -> -EINVAL on <= 6.18",
	.covers = "attr.defer_output attr.__reserved_1 errno.EINVAL",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	bool known = pa_since("6.19", "flag bit 39 is defer_output");

	attr.defer_output = 1;
	EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, known ? 0 : EINVAL);
}
