#include "perfabi.h"

#include <dirent.h>

/* Only meaningful where sysfs shows no core PMU at all. */
static const char *no_core_pmu(void)
{
	static char why[96];
	const char *self = pa_probe_self_perf();
	DIR *d;
	struct dirent *e;

	if (self)
		return self;
	if (pa_core_pmu_name()) {
		snprintf(why, sizeof(why), "a hardware PMU (%s) is present",
			 pa_core_pmu_name());
		return why;
	}
	d = opendir("/sys/bus/event_source/devices");
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, "cpu") || !strncmp(e->d_name, "cpu_", 4) ||
		    !strncmp(e->d_name, "armv", 4)) {
			snprintf(why, sizeof(why), "a hardware PMU (%s) is present",
				 e->d_name);
			closedir(d);
			return why;
		}
	}
	if (d)
		closedir(d);
	return NULL;
}

PERFABI_CASE(
	.assertion = "without a hardware PMU (a VM without a virtual PMU), "
		     "PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE events fail with "
		     "ENOENT: no PMU takes the type",
	.ref = "perf_event_open(2), ENOENT \"Returned if the type setting is not "
	       "valid\"; kernel/events/core.c perf_init_event() -> -ENOENT",
	.covers = "type.HARDWARE type.HW_CACHE errno.ENOENT",
	.probe = no_core_pmu,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS);

	attr.type = PERF_TYPE_HARDWARE;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, ENOENT);
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, ENOENT);
	attr.type = PERF_TYPE_HW_CACHE;
	attr.config = PERF_COUNT_HW_CACHE_L1D;	/* L1D read access */
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, ENOENT);
}
