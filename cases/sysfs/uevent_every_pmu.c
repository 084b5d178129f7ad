#include "perfabi.h"

#include <dirent.h>
#include <limits.h>

#define PMU_DIR "/sys/bus/event_source/devices"

PERFABI_CASE(
	.assertion = "every PMU under /sys/bus/event_source/devices is a device "
		     "of the event_source bus: it has a uevent file (the "
		     "standard kernel device interface for injecting hotplug "
		     "events), readable, and its subsystem link leads back to "
		     "/sys/bus/event_source",
	.ref = "perf_event_open(2), Files in /sys/bus/event_source/devices/*/"
	       "uevent; kernel/events/core.c pmu_bus (\"event_source\"), "
	       "pmu_dev_alloc()",
	.covers = "sysfs.uevent type.dynamic",
) {
	char bus[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *d;

	if (!realpath("/sys/bus/event_source", bus))
		pa_skip("no /sys/bus/event_source (sysfs not mounted)");
	d = opendir(PMU_DIR);
	if (!d)
		pa_skip("no " PMU_DIR);
	while ((de = readdir(d))) {
		char path[512], sub[PATH_MAX], buf[4096];
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		n++;
		snprintf(path, sizeof(path), PMU_DIR "/%s/uevent", de->d_name);
		f = fopen(path, "r");
		if (!f) {
			pa_fail("%s: %s", path, pa_errno_name(errno));
		} else {
			/* the read itself must work; its content is the
			 * device's environment, which may be empty */
			size_t r = fread(buf, 1, sizeof(buf), f);

			EXPECT_FALSE(ferror(f));
			pa_diag("%s: %zu bytes", path, r);
			fclose(f);
		}
		snprintf(path, sizeof(path), PMU_DIR "/%s/subsystem", de->d_name);
		if (!realpath(path, sub)) {
			pa_fail("%s: %s", path, pa_errno_name(errno));
			continue;
		}
		pa_diag("%s -> %s", path, sub);
		EXPECT_TRUE(!strcmp(sub, bus));
	}
	closedir(d);
	if (!n)
		pa_skip(PMU_DIR " lists no PMU");
}
