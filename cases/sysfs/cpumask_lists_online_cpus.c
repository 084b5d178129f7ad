#include "perfabi.h"

#include <ctype.h>
#include <dirent.h>

#define PMU_DIR "/sys/bus/event_source/devices"
#define MAX_CPU 8192

static bool read_path(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return true;
}

/* A CPU list "0-3,8,10-11\n" into set[]: NULL, else what is wrong. */
static const char *cpulist(const char *s, bool *set)
{
	const char *p = s;

	memset(set, 0, MAX_CPU * sizeof(*set));
	for (;;) {
		unsigned long lo, hi;
		char *end;

		if (!isdigit((unsigned char)*p))
			return "a CPU number does not start with a digit";
		lo = hi = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				return "a range end is not a number";
			hi = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (lo > hi)
			return "a range whose first CPU is after its last";
		if (hi >= MAX_CPU)
			return "a CPU number beyond this case's table";
		while (lo <= hi)
			set[lo++] = true;
		if (*p == ',') {
			p++;
			continue;
		}
		return strcmp(p, "\n") ? "trailing text after the list" : NULL;
	}
}

PERFABI_CASE(
	.assertion = "a PMU's cpumask file, where there is one, holds a list of "
		     "CPU numbers (\"0\", \"0,2\", \"0-3\": the representative "
		     "CPUs its events are opened on), and each is an online CPU",
	.ref = "perf_event_open(2), Files in /sys/bus/event_source/devices/*/"
	       "cpumask (since 3.7); kernel/events/core.c cpumask_show() "
	       "(cpumap_print_to_pagebuf(true, ...): a list)",
	.covers = "sysfs.cpumask type.dynamic",
) {
	static bool online[MAX_CPU], mask[MAX_CPU];
	char buf[4096];
	struct dirent *de;
	const char *why;
	int files = 0, i;
	DIR *d;

	if (!read_path("/sys/devices/system/cpu/online", buf, sizeof(buf)))
		pa_skip("no /sys/devices/system/cpu/online");
	why = cpulist(buf, online);
	if (why)
		pa_skip("/sys/devices/system/cpu/online does not parse: %s", why);
	d = opendir(PMU_DIR);
	if (!d)
		pa_skip("no " PMU_DIR " (sysfs not mounted)");
	while ((de = readdir(d))) {
		char path[512];
		int n = 0;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), PMU_DIR "/%s/cpumask", de->d_name);
		if (!read_path(path, buf, sizeof(buf)))
			continue;	/* a PMU without cpumask */
		files++;
		why = cpulist(buf, mask);
		pa_diag("%s: %.*s%s", path, (int)strcspn(buf, "\n"), buf,
			why ? " <- BAD" : "");
		if (why) {
			pa_fail("%s is \"%.*s\": %s", path,
				(int)strcspn(buf, "\n"), buf, why);
			continue;
		}
		for (i = 0; i < MAX_CPU; i++) {
			if (!mask[i])
				continue;
			n++;
			if (!online[i])
				pa_fail("%s lists CPU %d, which is not online",
					path, i);
		}
		EXPECT_GT(n, 0);
	}
	closedir(d);
	if (!files)
		pa_skip("no PMU here has a cpumask file (only uncore-style and "
			"scoped PMUs have one)");
}
