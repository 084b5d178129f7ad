// SPDX-License-Identifier: GPL-2.0
/*
 * The perf sysctls other than perf_event_paranoid (which the matrix
 * journals itself): a case may change them through pa_sysctl_write(), and
 * the kernel lowers perf_event_max_sample_rate by itself when sampling
 * interrupts run long. The runner saves them before the first case (in a
 * file that survives SIGKILL) and puts back, at the end, any that differ.
 */
#include "runner.h"

#include <fcntl.h>
#include <limits.h>

static const char *const run_sysctls[] = {
	"kernel/perf_event_max_sample_rate",
	"kernel/perf_cpu_time_max_percent",
	"kernel/perf_event_mlock_kb",
	"kernel/perf_event_max_stack",
	"kernel/perf_event_max_contexts_per_stack",
};

int pa_write_file_durably(const char *path, const char *text)
{
	char tmp[PATH_MAX];
	size_t len = strlen(text);
	int fd, bad;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	bad = write(fd, text, len) != (ssize_t)len || fsync(fd);
	if (close(fd) || bad) {
		unlink(tmp);
		return -1;
	}
	return rename(tmp, path);
}

int pa_sysctls_save(const char *procsys, const char *dir)
{
	char path[300], text[1024], v[128];
	size_t used = 0;

	snprintf(path, sizeof(path), "%s/sysctls", dir);
	text[0] = 0;
	for (size_t i = 0; i < sizeof(run_sysctls) / sizeof(run_sysctls[0]); i++)
		if (!pa_sysctl_read_at(procsys, run_sysctls[i], v, sizeof(v)) && used < sizeof(text))
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s\t%s\n",
						 run_sysctls[i], v);
	return pa_write_file_durably(path, text);
}

int pa_sysctls_restore(const char *procsys, const char *dir, char *note, size_t len)
{
	char path[300], line[512], now[128];
	FILE *f;
	int changed = 0, failed = 0;
	size_t used = 0;

	note[0] = 0;
	snprintf(path, sizeof(path), "%s/sysctls", dir);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *value;

		if (!tab)
			continue;
		*tab = 0;
		value = tab + 1;
		value[strcspn(value, "\n")] = 0;
		if (pa_sysctl_read_at(procsys, line, now, sizeof(now)) || !strcmp(now, value))
			continue;
		changed++;
		if (pa_sysctl_write_at(procsys, line, value))
			failed++;
		if (used < len)
			used += (size_t)snprintf(note + used, len - used,
				"%s# perfabi: %s was %s, %s %s", used ? "\n" : "",
				line, now, failed ? "could not restore it to" : "restored it to", value);
	}
	fclose(f);
	if (failed)
		return -1;	/* keep the file for the next run */
	unlink(path);
	return changed;
}
