#include "perfabi.h"

/*
 * aux_watermark is only read when an AUX area is mapped (rb_alloc_aux());
 * perf_event_open() does not validate it, so a PMU without AUX support
 * (software) accepts any value at open.
 */
PERFABI_CASE(
	.assertion = "aux_watermark is not checked at open: a software event (no AUX area) accepts a non-zero value",
	.ref = "include/uapi/linux/perf_event.h aux_watermark (4.1, VER5); kernel/events/core.c: aux_watermark is used only by perf_mmap() -> rb_alloc_aux()",
	.covers = "attr.aux_watermark size.VER5",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.aux_watermark = 4096;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
