#include "perfabi.h"

/*
 * config4 arrived with PERF_ATTR_SIZE_VER9 in 6.19. With size = VER9 and a
 * non-zero config4:
 *   6.19+ : a known field; the software PMU ignores it -> fd,
 *           counting exactly like the same event with config4 = 0;
 *   < 6.19: bytes 136..143 are an unknown non-zero tail -> E2BIG with the
 *           kernel's size written into attr.size.
 */
PERFABI_CASE(
	.assertion = "config4 (VER9) is accepted and ignored by a software event on 6.19+ (it counts exactly like the same event with config4 = 0: 64 page faults for 64 touched pages), and is a non-zero unknown tail (E2BIG, size written back) before",
	.ref = "include/uapi/linux/perf_event.h PERF_ATTR_SIZE_VER9 \"add: config4\" (6.19); perf_event_open(2), E2BIG",
	.covers = "attr.config4 size.VER9 errno.E2BIG",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.size = PERF_ATTR_SIZE_VER9;
	attr.config4 = 0x1234;
	if (pa_since("6.19", "config4 is part of the kernel's struct (VER9)")) {
		struct perf_event_attr zero = attr;
		int fz;

		zero.config4 = 0;
		fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
		fz = ASSERT_OPEN(&zero, 0, -1, -1, 0);
		/* ignored: counts like config4 = 0, 64 faults for 64 pages
		 * (exact once the measured path has run once) */
		pa_count_over(fd, pa_work_pages, 1);
		EXPECT_EQ(pa_count_over(fd, pa_work_pages, 64), 64);
		EXPECT_EQ(pa_count_over(fz, pa_work_pages, 64), 64);
		close(fd);
		close(fz);
	} else {
		EXPECT_E2BIG_SIZE(&attr);
	}
}
