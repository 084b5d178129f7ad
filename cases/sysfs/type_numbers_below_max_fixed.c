#include "perfabi.h"

#include <dirent.h>

#define PMU_DIR "/sys/bus/event_source/devices"

PERFABI_CASE(
	.assertion = "a PMU's sysfs type below PERF_TYPE_MAX is one of the fixed "
		     "numbers: software PERF_TYPE_SOFTWARE (1), tracepoint "
		     "PERF_TYPE_TRACEPOINT (2), breakpoint PERF_TYPE_BREAKPOINT "
		     "(5), or PERF_TYPE_RAW (4) for at most one PMU (the core "
		     "CPU PMU, \"usually 4\"); PERF_TYPE_HARDWARE (0) and "
		     "PERF_TYPE_HW_CACHE (3) are generic types no sysfs PMU "
		     "carries; every other PMU's type is dynamic, >= PERF_TYPE_MAX",
	.ref = "perf_event_open(2), type: dynamic PMU (\"/sys/bus/event_source/"
	       "devices/cpu/type contains the value for the core CPU PMU, which "
	       "is usually 4\"); kernel/events/core.c perf_pmu_register(): "
	       "type < 0 takes idr_alloc(..., PERF_TYPE_MAX, 0)",
	.covers = "sysfs.type attr.type type.dynamic",
) {
	struct dirent *de;
	int n = 0, raw = 0;
	DIR *d;

	d = opendir(PMU_DIR);
	if (!d)
		pa_skip("no " PMU_DIR " (sysfs not mounted)");
	while ((de = readdir(d))) {
		int type;

		if (de->d_name[0] == '.')
			continue;
		type = pa_pmu_type(de->d_name);
		n++;
		pa_diag("%s: %d", de->d_name, type);
		if (type < 0) {
			pa_fail("%s/type is missing or not a number", de->d_name);
			continue;
		}
		if (!strcmp(de->d_name, "software"))
			EXPECT_EQ(type, PERF_TYPE_SOFTWARE);
		else if (!strcmp(de->d_name, "tracepoint"))
			EXPECT_EQ(type, PERF_TYPE_TRACEPOINT);
		else if (!strcmp(de->d_name, "breakpoint"))
			EXPECT_EQ(type, PERF_TYPE_BREAKPOINT);
		else if (type == PERF_TYPE_RAW)
			raw++;
		else
			EXPECT_GE(type, PERF_TYPE_MAX);
	}
	closedir(d);
	if (!n)
		pa_skip(PMU_DIR " lists no PMU");
	EXPECT_LE(raw, 1);
}
