#include "perfabi.h"

#include <ctype.h>
#include <dirent.h>

#define PMU_DIR "/sys/bus/event_source/devices"

PERFABI_CASE(
	.assertion = "a PMU's nr_addr_filters file is there only for a PMU that "
		     "takes address filters (PERF_EVENT_IOC_SET_FILTER), and holds "
		     "their number: one decimal integer of at least 1",
	.ref = "kernel/events/core.c nr_addr_filters_show() and "
	       "pmu_dev_is_visible() (\"n == 2 && !pmu->nr_addr_filters\": hidden), "
	       "since 4.7 (375637bc5249); perf_event_open(2) "
	       "PERF_EVENT_IOC_SET_FILTER",
	.covers = "sysfs.nr_addr_filters type.dynamic",
) {
	struct dirent *de;
	int files = 0;
	DIR *d;

	d = opendir(PMU_DIR);
	if (!d)
		pa_skip("no " PMU_DIR " (sysfs not mounted)");
	while ((de = readdir(d))) {
		char path[512], buf[64], *end;
		long v;
		size_t n;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PMU_DIR "/%s/nr_addr_filters",
			 de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;	/* no address filters */
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = 0;
		files++;
		pa_diag("%s: %.*s", path, (int)strcspn(buf, "\n"), buf);
		if (!isdigit((unsigned char)buf[0])) {
			pa_fail("%s is \"%s\", not a decimal integer", path, buf);
			continue;
		}
		v = strtol(buf, &end, 10);
		if (strcmp(end, "\n")) {
			pa_fail("%s is \"%s\", not one decimal integer", path, buf);
			continue;
		}
		EXPECT_GE(v, 1);
	}
	closedir(d);
	if (!files)
		pa_skip("no PMU here takes address filters (intel_pt, "
			"coresight, arm_spe have nr_addr_filters)");
}
