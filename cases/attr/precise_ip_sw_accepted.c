#include "perfabi.h"

/*
 * precise_ip (2 bits, 0..3) asks for a skid constraint that only some
 * hardware PMUs can give. The software PMU does not check it: every value
 * opens and the event counts as usual, 16 page faults for 16 fresh pages
 * (exact once the measured path has run once).
 */
PERFABI_CASE(
	.assertion = "attr.precise_ip 1, 2 and 3 on a software page-fault event are accepted (the software PMU has no skid) and the event counts the page faults made: exactly 16 for 16 touched pages",
	.ref = "perf_event_open(2), precise_ip: \"This controls the amount of skid\" (0..3); kernel/events/core.c perf_swevent_init() does not look at precise_ip",
	.covers = "attr.precise_ip",
	.probe = pa_probe_self_perf,
) {
	for (unsigned p = 1; p <= 3; p++) {
		struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
		int fd;

		attr.precise_ip = p;
		pa_diag("precise_ip = %u", p);
		fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
		if (fd < 0)
			continue;
		pa_count_over(fd, pa_work_pages, 1);	/* warm up */
		EXPECT_EQ(pa_count_over(fd, pa_work_pages, 16), 16);
		close(fd);
	}
}
