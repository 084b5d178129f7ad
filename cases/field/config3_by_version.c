#include "perfabi.h"

/*
 * config3 arrived with PERF_ATTR_SIZE_VER8 in 6.3. With size = VER8 and a
 * non-zero config3:
 *   6.3+  : config3 is a known field; the software PMU ignores it -> fd;
 *   < 6.3 : bytes 128..135 are an unknown non-zero tail -> E2BIG with the
 *           kernel's size (128) written into attr.size.
 */
PERFABI_CASE(
	.assertion = "config3 (VER8) is accepted and ignored by a software event on 6.3+, and is a non-zero unknown tail (E2BIG, size written back) before",
	.ref = "include/uapi/linux/perf_event.h PERF_ATTR_SIZE_VER8 \"add: config3\" (6.3); perf_event_open(2), E2BIG",
	.covers = "attr.config3 size.VER8 errno.E2BIG",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.size = PERF_ATTR_SIZE_VER8;
	attr.config3 = 0x1234;
	if (pa_since("6.3", "config3 is part of the kernel's struct (VER8)")) {
		fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
		if (fd >= 0)
			close(fd);
	} else {
		EXPECT_E2BIG_SIZE(&attr);
	}
}
