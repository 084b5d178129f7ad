#include "perfabi.h"

#include <ctype.h>
#include <dirent.h>

#define PMU_DIR "/sys/bus/event_source/devices"

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

/* Number of bits the format string "configN:a-b,c" gives, or -1. */
static int format_bits(const char *fmt)
{
	const char *p = strchr(fmt, ':');
	int bits = 0;

	if (!p)
		return -1;
	for (p++; *p && *p != '\n';) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		bits += (int)(hi - lo + 1);
		p = *end == ',' ? end + 1 : end;
		if (*end != ',' && *end != '\n' && *end)
			return -1;
	}
	return bits;
}

/* Documented name suffixes that are not events. */
static bool not_an_event(const char *name)
{
	static const char *const sfx[] = { ".unit", ".scale", ".per-pkg",
					   ".snapshot" };
	size_t i, n = strlen(name);

	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
		if (n > strlen(sfx[i]) && !strcmp(name + n - strlen(sfx[i]), sfx[i]))
			return true;
	return false;
}

static bool one_case(const char *name)
{
	bool lower = false, upper = false;

	for (; *name; name++) {
		lower |= islower((unsigned char)*name);
		upper |= isupper((unsigned char)*name);
	}
	return !(lower && upper);
}

/* The perf tool's built-in terms naming a whole attr field: drivers
 * (hisi_uncore, xgene) write "config=0x.." without a format/config. */
static bool is_config_term(const char *t)
{
	return !strcmp(t, "config") || !strcmp(t, "config1") ||
	       !strcmp(t, "config2") || !strcmp(t, "config3");
}

/* Check one event's content against pmu's format/; NULL when good. */
static const char *event_error(const char *pmu, char *spec, char *bad, size_t blen)
{
	char *save = NULL, *term;
	size_t len = strlen(spec);

	/* one line; x86's events_ht_sysfs_show() writes no newline */
	if (len && spec[len - 1] == '\n')
		spec[--len] = 0;
	if (!len)
		return "empty";
	if (strchr(spec, '\n'))
		return "more than one line";
	if (spec[0] == ',' || spec[len - 1] == ',' || strstr(spec, ",,"))
		return "an empty term";
	for (term = strtok_r(spec, ",", &save); term;
	     term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '='), path[768], fmt[256], *end;
		unsigned long long v = 1;
		int bits;

		snprintf(bad, blen, "%s", term);
		if (eq)
			*eq = 0;
		snprintf(path, sizeof(path), PMU_DIR "/%s/format/%s", pmu, term);
		if (!read_path(path, fmt, sizeof(fmt))) {
			if (!is_config_term(term))
				return "a term with no format/ file";
			/* the whole field */
			snprintf(fmt, sizeof(fmt), "%s:0-63\n", term);
		}
		if (!eq)
			continue;	/* a bare term: 1 */
		if (!strcmp(eq + 1, "?"))
			continue;	/* a parameter the user gives */
		errno = 0;
		v = strtoull(eq + 1, &end, 0);
		if (end == eq + 1 || *end || errno)
			return "a value that is not a number";
		if (!strncmp(eq + 1, "0X", 2) || strpbrk(eq + 1, "ABCDEF"))
			return "upper-case hex (lowercase only)";
		bits = format_bits(fmt);
		if (bits < 0)
			return "its format/ file does not parse";
		if (bits < 64 && v >> bits)
			return "a value wider than its format/ bits";
	}
	return NULL;
}

PERFABI_CASE(
	.assertion = "every event file in /sys/bus/event_source/devices/<pmu>/"
		     "events/ (but the .unit, .scale, .per-pkg and .snapshot "
		     "files) is \"<term>[=<value>][,<term>[=<value>]]...\" where "
		     "each <term> is listed under <pmu>/format/ (or names a "
		     "whole field: config, config1, config2, config3) and <value> is a "
		     "number (lowercase hex with 0x, or decimal) that fits the "
		     "term's bits, or \"?\"; the event's name is all lower or "
		     "all upper case",
	.ref = "Documentation/ABI/testing/sysfs-bus-event_source-devices-events; "
	       "perf_event_open(2), Files in .../*/events/ (since 3.4)",
	.covers = "sysfs.events attr.config type.dynamic",
) {
	struct dirent *de, *ee;
	int events = 0;
	DIR *d, *ed;

	d = opendir(PMU_DIR);
	if (!d)
		pa_skip("no " PMU_DIR " (sysfs not mounted)");
	while ((de = readdir(d))) {
		char dir[512];

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), PMU_DIR "/%s/events", de->d_name);
		ed = opendir(dir);
		if (!ed)
			continue;	/* a PMU without events/ */
		while ((ee = readdir(ed))) {
			char path[1024], spec[512], copy[512], bad[256] = "";
			const char *why;

			if (ee->d_name[0] == '.' || not_an_event(ee->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, ee->d_name);
			if (!read_path(path, spec, sizeof(spec))) {
				/* some drivers hide events they cannot count:
				 * a listed file must still be readable */
				pa_fail("%s: %s", path, pa_errno_name(errno));
				continue;
			}
			events++;
			snprintf(copy, sizeof(copy), "%.*s", (int)strcspn(spec, "\n"), spec);
			why = event_error(de->d_name, spec, bad, sizeof(bad));
			pa_diag("%s/events/%s: %s%s", de->d_name, ee->d_name, copy,
				why ? " <- BAD" : "");
			if (why)
				pa_fail("%s is \"%s\": \"%s\": %s", path, copy, bad, why);
			if (!one_case(ee->d_name))
				pa_fail("%s: event name mixes lower and upper case",
					path);
		}
		closedir(ed);
	}
	closedir(d);
	if (!events)
		pa_skip("no PMU here lists events/");
	EXPECT_GT(events, 0);
}
