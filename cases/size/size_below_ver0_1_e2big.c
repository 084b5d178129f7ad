#include "perfabi.h"

/*
 * A size below PERF_ATTR_SIZE_VER0 (64) but not 0 is too small: E2BIG (not
 * EINVAL), and the kernel writes its own sizeof(struct perf_event_attr) into
 * attr.size so the caller learns what it expects.
 */
PERFABI_CASE(
	.assertion = "attr.size = 1 (non-zero, below PERF_ATTR_SIZE_VER0) fails with E2BIG and the kernel's own size is written into attr.size",
	.ref = "perf_event_open(2), E2BIG: \"too small (smaller than PERF_ATTR_SIZE_VER0) ... the size field is overwritten by the kernel to be the size of the structure it was expecting\"; kernel/events/core.c perf_copy_attr()",
	.covers = "attr.size size.VER0 errno.E2BIG",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);

	attr.size = 1;
	EXPECT_E2BIG_SIZE(&attr);
}
