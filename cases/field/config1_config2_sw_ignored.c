#include "perfabi.h"

/*
 * config1 and config2 extend config for PMUs that need it. The software PMU
 * (perf_swevent_init) looks only at config, so arbitrary values there are
 * ignored, not refused.
 */
PERFABI_CASE(
	.assertion = "config1 and config2 are ignored by software events: any value is accepted",
	.ref = "perf_event_open(2), config1/config2: \"used for setting events that need an extra register or otherwise do not fit in the regular config field\"; kernel/events/core.c perf_swevent_init() reads only attr.config",
	.covers = "attr.config1 attr.config2",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	int fd;

	attr.config1 = ~0ULL;
	attr.config2 = 0x5a5a5a5a5a5a5a5aULL;
	fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
}
