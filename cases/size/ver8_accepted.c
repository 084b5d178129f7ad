#include "perfabi.h"

/*
 * attr.size = PERF_ATTR_SIZE_VER8: the layout that ends after config3 (6.3).
 * The attr is placed so that its last byte is the last byte of a mapping
 * (the next page is PROT_NONE): an accepted open also shows that the
 * kernel read no byte beyond the declared size.
 */
PERFABI_CASE(
	.assertion = "attr.size = PERF_ATTR_SIZE_VER8 is accepted, and the kernel reads no byte beyond the declared size",
	.ref = "perf_event_open(2), size: \"the size of the perf_event_attr structure for forward/backward compatibility\"; kernel/events/core.c perf_copy_attr(), copy_struct_from_user()",
	.covers = "attr.size size.VER8 arg.attr",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr base = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr *attr = pa_guarded_tail(PERF_ATTR_SIZE_VER8);
	int fd;

	memcpy(attr, &base, PERF_ATTR_SIZE_VER8);
	attr->size = PERF_ATTR_SIZE_VER8;
	fd = EXPECT_OPEN(attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
