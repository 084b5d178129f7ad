// SPDX-License-Identifier: GPL-2.0
/* Finding the built cases and running one binary under a deadline. */
#include "runner.h"
#include "exec.h"

#include <dirent.h>
#include <sys/stat.h>

static int add(struct pa_case_info **v, int *n, int *cap, const char *name,
	       const char *path)
{
	if (*n == *cap) {
		int ncap = *cap ? *cap * 2 : 256;
		struct pa_case_info *nv = realloc(*v, (size_t)ncap * sizeof(**v));

		if (!nv)
			return -1;
		*v = nv;
		*cap = ncap;
	}
	memset(&(*v)[*n], 0, sizeof(**v));
	snprintf((*v)[*n].name, sizeof((*v)[0].name), "%s", name);
	snprintf((*v)[*n].path, sizeof((*v)[0].path), "%s", path);
	(*v)[*n].timeout = 10;
	(*n)++;
	return 0;
}

/* cases live exactly one level down: DIR/<area>/<case> */
int pa_discover(const char *dir, struct pa_case_info **out, int *n)
{
	DIR *top = opendir(dir), *sub;
	struct dirent *a, *c;
	int cap = 0;

	*out = NULL;
	*n = 0;
	if (!top)
		return -1;
	while ((a = readdir(top))) {
		char adir[512];

		if (a->d_name[0] == '.')
			continue;
		snprintf(adir, sizeof(adir), "%s/%s", dir, a->d_name);
		sub = opendir(adir);
		if (!sub)
			continue;
		while ((c = readdir(sub))) {
			char path[1024], name[300];
			struct stat st;

			if (c->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", adir, c->d_name);
			if (stat(path, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & S_IXUSR))
				continue;
			snprintf(name, sizeof(name), "%s/%s", a->d_name, c->d_name);
			if (add(out, n, &cap, name, path)) {
				closedir(sub);
				closedir(top);
				return -1;
			}
		}
		closedir(sub);
	}
	closedir(top);
	qsort(*out, (size_t)*n, sizeof(**out),
	      (int (*)(const void *, const void *))strcmp);
	return 0;
}

static int parse_info(struct pa_case_info *ci, struct pa_exec *e)
{
	if (!WIFEXITED(e->status) || WEXITSTATUS(e->status))
		return -1;
	pa_info_parse(e->output ? e->output : "", ci);
	return 0;
}

static void info_failed(struct pa_case_info *ci)
{
	ci->assertion[0] = 0;
	ci->timeout = -1;	/* the runner reports it as a failure */
}

/*
 * Each case's --info, up to `parallel` at once: a fork and exec each (some
 * 5 ms for a static binary here, most of a short run's start-up when done
 * one after the other for 600 cases).
 */
void pa_case_load_infos(struct pa_case_info *v, int n, int parallel)
{
	struct pa_exec ex[64];
	int who[64], next = 0, running = 0;

	if (parallel < 1)
		parallel = 1;
	if (parallel > 64)
		parallel = 64;
	for (int k = 0; k < parallel; k++)
		who[k] = -1;
	while (next < n || running) {
		struct pa_exec *run[64];
		int slot[64], np = 0;

		for (int k = 0; k < parallel && next < n; k++) {
			if (who[k] >= 0)
				continue;
			ex[k] = (struct pa_exec){ .path = v[next].path, .arg = "--info", .timeout_ms = 10000 };
			if (pa_exec_start(&ex[k])) {
				free(ex[k].output);
				info_failed(&v[next++]);
				continue;
			}
			who[k] = next++;
			running++;
		}
		for (int k = 0; k < parallel; k++) {
			if (who[k] < 0)
				continue;
			run[np] = &ex[k];
			slot[np++] = k;
		}
		pa_exec_wait_any(run, np);
		for (int m = 0; m < np; m++) {
			int k = slot[m];

			if (!pa_exec_pump(&ex[k]))
				continue;
			pa_exec_finish(&ex[k]);
			if (ex[k].timed_out || parse_info(&v[who[k]], &ex[k]))
				info_failed(&v[who[k]]);
			free(ex[k].output);
			who[k] = -1;
			running--;
		}
	}
}
