#include "perfabi.h"

/*
 * A size larger than the page size is refused outright, even when every
 * byte is zero: E2BIG, and the kernel writes its own size into attr.size.
 */
PERFABI_CASE(
	.assertion = "attr.size larger than the page size fails with E2BIG, even with an all-zero tail, and the kernel's own size is written into attr.size",
	.ref = "perf_event_open(2), E2BIG: \"too big (larger than the page size)\"; kernel/events/core.c perf_copy_attr(): size > PAGE_SIZE goto err_size",
	.covers = "attr.size errno.E2BIG",
	.probe = pa_probe_self_perf,
) {
	long psz = sysconf(_SC_PAGESIZE);
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr *attr = pa_guarded_tail(2 * (size_t)psz);

	memcpy(attr, &base, sizeof(base));
	attr->size = (uint32_t)psz + 8;
	EXPECT_E2BIG_SIZE(attr);
}
