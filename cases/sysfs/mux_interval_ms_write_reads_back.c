#include "perfabi.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>

#define PMU_DIR "/sys/bus/event_source/devices"
#define MAX_PMU 1024

/* The values found. The writes go through pa_sysctl_write(), so the case
 * supervisor puts the first value back whatever happens to the body (a
 * timeout's SIGKILL too); it keeps a few, so only the first WRITTEN PMUs
 * are written. */
#define WRITTEN 8
static struct {
	char path[320];
	long old;
} saved[MAX_PMU];
static int nsaved;

static int write_path(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		ret = -1;
	if (ret) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/* "<decimal>\n" of path, or -1. */
static long read_value(const char *path)
{
	char buf[64], *end;
	size_t n;
	long v;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	if (!isdigit((unsigned char)buf[0]))
		return -1;
	v = strtol(buf, &end, 10);
	return strcmp(end, "\n") ? -1 : v;
}

PERFABI_CASE(
	.assertion = "every PMU has a perf_event_mux_interval_ms file holding its "
		     "multiplexing interval, a decimal number of milliseconds of "
		     "at least 1 (0 for the software-context PMUs before 6.2); root may set it: the new value reads back, and "
		     "a value below 1 fails with EINVAL and changes nothing",
	.ref = "kernel/events/core.c perf_event_mux_interval_ms_show()/_store() "
	       "(\"if (timer < 1) return -EINVAL\"), since 3.11 (62b856397927, "
	       "\"perf: Add sysfs entry to adjust multiplexing interval per PMU\")",
	.alone = true,
	.covers = "sysfs.perf_event_mux_interval_ms type.dynamic",
	.root = true,
) {
	struct dirent *de;
	char buf[32];
	DIR *d;
	/* Before the 6.2 context rework (bd2756811766) the PMUs of the
	 * software context (software, tracepoint, breakpoint, the probes)
	 * had no multiplexing timer: __perf_mux_hrtimer_init() returned
	 * early and their interval stayed 0 */
	bool all_timed = pa_since("6.2", "the software-context PMUs (software, tracepoint, "
				  "breakpoint, probes) have a multiplexing interval too");
	int i;

	d = opendir(PMU_DIR);
	if (!d)
		pa_skip("no " PMU_DIR " (sysfs not mounted)");
	while ((de = readdir(d)) && nsaved < MAX_PMU) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(saved[nsaved].path, sizeof(saved[0].path),
			 PMU_DIR "/%s/perf_event_mux_interval_ms", de->d_name);
		saved[nsaved].old = read_value(saved[nsaved].path);
		pa_diag("%s: %ld", saved[nsaved].path, saved[nsaved].old);
		if (all_timed)
			EXPECT_GE(saved[nsaved].old, 1);
		else
			EXPECT_GE(saved[nsaved].old, 0);
		nsaved++;
	}
	closedir(d);
	if (!nsaved)
		pa_skip(PMU_DIR " lists no PMU");

	for (i = 0; i < nsaved && i < WRITTEN; i++) {
		long want = saved[i].old + 1;

		if (saved[i].old < 1)
			continue;	/* failed above, or no timer (before 6.2) */
		snprintf(buf, sizeof(buf), "%ld", want);
		if (EXPECT_OK(pa_sysctl_write(saved[i].path, buf)) < 0)
			continue;
		EXPECT_EQ(read_value(saved[i].path), want);
		EXPECT_ERRNO(write_path(saved[i].path, "0\n"), EINVAL);
		EXPECT_EQ(read_value(saved[i].path), want);
		snprintf(buf, sizeof(buf), "%ld", saved[i].old);
		EXPECT_OK(pa_sysctl_write(saved[i].path, buf));
		EXPECT_EQ(read_value(saved[i].path), saved[i].old);
	}
}
