#include "perfabi.h"

#include <ctype.h>
#include <dirent.h>

#define PMU_DIR "/sys/bus/event_source/devices"

/* "<field>:<lo>[-<hi>][,<lo>[-<hi>]]...\n": NULL when it parses, with bits
 * 0..63 and lo <= hi, else what is wrong. */
static const char *format_error(const char *s, bool config3)
{
	static const char *const fields[] = { "config:", "config1:", "config2:",
					      "config3:" };
	const char *p = NULL;
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strncmp(s, fields[i], strlen(fields[i]))) {
			p = s + strlen(fields[i]);
			break;
		}
	if (!p)
		return "no config/config1/config2/config3 field before ':'";
	if (i == 3 && !config3)
		return "config3 before the kernel has attr.config3 (6.3)";
	for (;;) {
		unsigned long lo, hi;
		char *end;

		if (!isdigit((unsigned char)*p))
			return "a bit range does not start with a digit";
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				return "a range end is not a number";
			hi = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (hi > 63)
			return "a bit beyond 63 of a 64-bit field";
		if (lo > hi)
			return "a range whose first bit is after its last";
		if (*p == ',') {
			p++;
			continue;
		}
		/* the kernel's PMU_FORMAT_ATTR() ends the line with a
		 * newline; the documentation does not ask for one */
		return strcmp(p, "\n") && *p ? "trailing text after the bit ranges" : NULL;
	}
}

PERFABI_CASE(
	.assertion = "every file in /sys/bus/event_source/devices/*/format/ is "
		     "the name of the config field, a colon, and a series of "
		     "integer bit ranges separated by commas (\"config1:1,6-10,44\"): "
		     "the field is config, config1, config2 (or config3, since "
		     "6.3) and every bit is within the 64-bit field",
	.ref = "perf_event_open(2), Files in /sys/bus/event_source/devices/*/format/ "
	       "(since 3.4); Documentation/ABI/testing/"
	       "sysfs-bus-event_source-devices-format",
	.covers = "sysfs.format attr.config attr.config1 attr.config2 attr.config3 type.dynamic",
) {
	bool config3 = pa_kernel_at_least("6.3");
	struct dirent *de, *fe;
	int files = 0;
	DIR *d, *fd;

	d = opendir(PMU_DIR);
	if (!d)
		pa_skip("no " PMU_DIR " (sysfs not mounted)");
	while ((de = readdir(d))) {
		char dir[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), PMU_DIR "/%s/format", de->d_name);
		fd = opendir(dir);
		if (!fd)
			continue;	/* a PMU without format/ */
		while ((fe = readdir(fd))) {
			char path[1024], buf[256];
			const char *why;
			size_t n;
			FILE *f;

			if (fe->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, fe->d_name);
			f = fopen(path, "r");
			if (!f) {
				pa_fail("%s: %s", path, pa_errno_name(errno));
				continue;
			}
			n = fread(buf, 1, sizeof(buf) - 1, f);
			fclose(f);
			buf[n] = 0;
			files++;
			why = format_error(buf, config3);
			pa_diag("%s/format/%s: %.*s%s", de->d_name, fe->d_name,
				(int)strcspn(buf, "\n"), buf, why ? " <- BAD" : "");
			if (why)
				pa_fail("%s is \"%.*s\": %s", path,
					(int)strcspn(buf, "\n"), buf, why);
		}
		closedir(fd);
	}
	closedir(d);
	if (!files)
		pa_skip("no PMU here has a format/ directory");
	EXPECT_GT(files, 0);
}
