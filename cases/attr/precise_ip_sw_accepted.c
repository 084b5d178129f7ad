#include "perfabi.h"

/*
 * precise_ip (2 bits, 0..3) asks for a skid constraint that only some
 * hardware PMUs can give. The software PMU does not check it: every value
 * opens and the event counts as usual.
 */
PERFABI_CASE(
	.assertion = "attr.precise_ip 1, 2 and 3 on a software page-fault event are accepted (the software PMU has no skid) and the event counts the page faults made",
	.ref = "perf_event_open(2), precise_ip: \"This controls the amount of skid\" (0..3); kernel/events/core.c perf_swevent_init() does not look at precise_ip",
	.covers = "attr.precise_ip",
	.probe = pa_probe_self_perf,
) {
	for (unsigned p = 1; p <= 3; p++) {
		struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
		int fd;

		attr.disabled = 0;
		attr.precise_ip = p;
		pa_diag("precise_ip = %u", p);
		fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
		if (fd < 0)
			continue;
		pa_touch_pages(16);
		EXPECT_GE(pa_read_one(fd), 16);
		close(fd);
	}
}
