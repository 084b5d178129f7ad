#include "perfabi.h"

/*
 * inherit_stat only means something for inherited events (it makes their
 * per-task counts reported at child exit). Without inherit the kernel does
 * not refuse it: perf_copy_attr() has no rule for it and the event counts
 * as usual: 32 page faults for 32 fresh pages (exact once the measured
 * path has run once).
 */
PERFABI_CASE(
	.assertion = "attr.inherit_stat without attr.inherit is accepted (no error) and the event counts its own task as usual: exactly 32 page faults for 32 touched pages",
	.ref = "perf_event_open(2), inherit_stat: \"This bit enables saving of event counts on context switch for inherited tasks. This is meaningful only if the inherit field is set\"; kernel/events/core.c perf_copy_attr() (no inherit_stat check)",
	.covers = "attr.inherit_stat",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.inherit = 0;
	attr.inherit_stat = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_count_over(fd, pa_work_pages, 1);	/* warm up the measured path */
	EXPECT_EQ(pa_count_over(fd, pa_work_pages, 32), 32);
	close(fd);
}
