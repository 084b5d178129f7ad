#include "perfabi.h"

#include <dirent.h>

PERFABI_CASE(
	.assertion = "a type number that no PMU has fails with ENOENT",
	.ref = "perf_event_open(2), ENOENT \"Returned if the type setting is not "
	       "valid\"; kernel/events/core.c perf_init_event()",
	.covers = "type.unknown attr.type errno.ENOENT",
	.probe = pa_probe_self_perf,
) {
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	int max = PERF_TYPE_MAX;
	struct perf_event_attr attr = pa_sw_attr(0);
	uint32_t types[3];

	if (!d)
		pa_skip("no /sys/bus/event_source/devices");
	while ((e = readdir(d))) {
		int t = e->d_name[0] == '.' ? -1 : pa_pmu_type(e->d_name);

		if (t > max)
			max = t;
	}
	closedir(d);
	/*
	 * Types are handed out from PERF_TYPE_MAX upward, lowest free first,
	 * and some PMUs have none in sysfs (cpu_clock, task_clock: PMU_NULL_DEV),
	 * so "not in sysfs" is not enough: go far past every PMU there can be.
	 */
	types[0] = (uint32_t)max + 4096;
	types[1] = 0x7fffffff;
	types[2] = 0xffffffff;
	for (int i = 0; i < 3; i++) {
		attr.type = types[i];
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, ENOENT);
	}
}
