#include "perfabi.h"

#include <ctype.h>
#include <dirent.h>

#define PMU_DIR "/sys/bus/event_source/devices"

static int read_file(const char *pmu, const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), PMU_DIR "/%s/%s", pmu, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return 0;
}

/* "<decimal>\n": the number, else -1 */
static long decimal_line(const char *s)
{
	const char *p = s;
	long v = 0;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		v = v * 10 + (*p - '0');
		if (v > 0xffffffffL)
			return -1;
	}
	return strcmp(p, "\n") ? -1 : v;
}

/* A config the PMU documents: its first events/ entry that has no "?"
 * parameter, else config 0. */
static void pmu_config(const char *pmu, uint64_t cfg[3], char *what, size_t len)
{
	char path[512];
	struct dirent *de;
	DIR *d;

	cfg[0] = cfg[1] = cfg[2] = 0;
	snprintf(what, len, "config 0");
	snprintf(path, sizeof(path), PMU_DIR "/%s/events", pmu);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue;
		if (!pa_pmu_event_config(pmu, de->d_name, cfg)) {
			snprintf(what, len, "events/%s", de->d_name);
			break;
		}
	}
	closedir(d);
}

PERFABI_CASE(
	.assertion = "every PMU directory under /sys/bus/event_source/devices has "
		     "a type file whose content is an integer that can be used "
		     "in the type field to select that PMU: one decimal number, "
		     "distinct per PMU, which perf_event_open() knows (the PMU "
		     "answers; ENOENT would mean no PMU has that type)",
	.ref = "perf_event_open(2), type: dynamic PMU, and Files in "
	       "/sys/bus/event_source/devices/*/type (since 2.6.38); ENOENT: "
	       "\"the type setting is not valid\"; kernel/events/core.c type_show()",
	.covers = "sysfs.type attr.type type.dynamic type.unknown",
	.probe = pa_probe_self_perf,
) {
	static char names[1024][64];
	char buf[64], what[300];
	static long types[1024];
	struct dirent *de;
	int n = 0, i, j;
	DIR *d;

	d = opendir(PMU_DIR);
	if (!d)
		pa_skip("no " PMU_DIR " (sysfs not mounted)");
	while ((de = readdir(d)) && n < 1024) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(names[n++], sizeof(names[0]), "%s", de->d_name);
	}
	closedir(d);
	if (!n)
		pa_skip(PMU_DIR " lists no PMU");

	for (i = 0; i < n; i++) {
		struct perf_event_attr attr = pa_sw_attr(0);
		uint64_t cfg[3];
		int fd, err;

		if (read_file(names[i], "type", buf, sizeof(buf))) {
			pa_fail("%s/type: cannot read it (%s)", names[i],
				pa_errno_name(errno));
			types[i] = -1;
			continue;
		}
		types[i] = decimal_line(buf);
		if (types[i] < 0) {
			pa_fail("%s/type is \"%.20s\", not one decimal integer",
				names[i], buf);
			continue;
		}
		for (j = 0; j < i; j++)
			if (types[j] == types[i])
				pa_fail("%s and %s both have type %ld", names[j],
					names[i], types[i]);

		pmu_config(names[i], cfg, what, sizeof(what));
		attr.type = (uint32_t)types[i];
		attr.config = cfg[0];
		attr.config1 = cfg[1];
		attr.config2 = cfg[2];
		errno = 0;
		fd = pa_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		err = fd < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		/* EACCES/EPERM (rules), EINVAL (attr the PMU refuses: e.g.
		 * exclude_kernel, no probe path), ENODEV/EOPNOTSUPP (cpu-wide
		 * or hardware only): the PMU took the event. */
		pa_diag("%s: type %ld, %s -> %s", names[i], types[i], what,
			err ? pa_errno_name(err) : "fd");
		EXPECT_NE(err, ENOENT);
	}
	EXPECT_GT(n, 0);
}
