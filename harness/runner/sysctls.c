// SPDX-License-Identifier: GPL-2.0
/*
 * The perf sysctls other than perf_event_paranoid (which the matrix
 * journals itself): a case may change them through pa_sysctl_write(), and
 * the kernel lowers perf_event_max_sample_rate by itself when sampling
 * interrupts run long. The runner saves them before the first case (in a
 * file that survives SIGKILL) and puts back, at the end, any that differ.
 */
#include "runner.h"

static const char *const run_sysctls[] = {
	"kernel/perf_event_max_sample_rate",
	"kernel/perf_cpu_time_max_percent",
	"kernel/perf_event_mlock_kb",
	"kernel/perf_event_max_stack",
	"kernel/perf_event_max_contexts_per_stack",
};

int pa_sysctls_save(const char *procsys, const char *dir)
{
	char path[300], tmp[310], v[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sysctls", dir);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "we");
	if (!f)
		return -1;
	for (size_t i = 0; i < sizeof(run_sysctls) / sizeof(run_sysctls[0]); i++)
		if (!pa_sysctl_read_at(procsys, run_sysctls[i], v, sizeof(v)))
			fprintf(f, "%s\t%s\n", run_sysctls[i], v);
	if (fflush(f) || fsync(fileno(f)) || fclose(f)) {
		unlink(tmp);
		return -1;
	}
	return rename(tmp, path);
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
