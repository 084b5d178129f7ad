// SPDX-License-Identifier: GPL-2.0
/* Finding the built cases and running one binary under a deadline. */
#include "runner.h"
#include "exec.h"

#include <dirent.h>
#include <limits.h>
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

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct pa_case_info *)a)->name, ((const struct pa_case_info *)b)->name);
}

/*
 * The cases of a build are links to one program that holds them all (the
 * Makefile): "<program> --info-all" gives every --info at once, each after
 * a line "case: <area>/<name>". Those whose path leads to the program of
 * the first case take their --info from it (v is sorted by name) and are
 * marked in done[]; the others, and all where it fails, run their own.
 */
static void load_infos_at_once(struct pa_case_info *v, int n, bool *done)
{
	char prog[PATH_MAX], real[PATH_MAX];
	struct pa_exec e;
	bool *mine = calloc((size_t)n, sizeof(*mine));
	int many = 0;

	if (!mine || n < 2 || !realpath(v[0].path, prog)) {
		free(mine);
		return;
	}
	for (int i = 0; i < n; i++)
		if (realpath(v[i].path, real) && !strcmp(real, prog))
			mine[i] = true, many++;
	e = (struct pa_exec){ .path = prog, .arg = "--info-all", .timeout_ms = 30000 };
	if (many < 2 || pa_exec(&e) || e.timed_out || !WIFEXITED(e.status) || WEXITSTATUS(e.status) || !e.output) {
		free(e.output);
		free(mine);
		return;
	}
	for (char *p = strncmp(e.output, "case: ", 6) ? strstr(e.output, "\ncase: ") : e.output; p;) {
		struct pa_case_info key, *ci;
		char *nl, *next;

		if (*p == '\n')
			p++;
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = 0;
		snprintf(key.name, sizeof(key.name), "%s", p + 6);
		next = strstr(nl + 1, "\ncase: ");
		if (next)
			*next = 0;
		ci = bsearch(&key, v, (size_t)n, sizeof(*v), by_name);
		if (ci && mine[ci - v]) {
			pa_info_parse(nl + 1, ci);
			done[ci - v] = true;
		}
		p = next ? next + 1 : NULL;
	}
	free(e.output);
	free(mine);
}

/*
 * Each case's --info: from the program that holds them all where it can
 * (one exec), else up to `parallel` at once, a fork and exec each (some 5
 * ms for a static binary here, most of a short run's start-up when done
 * one after the other for 600 cases).
 */
void pa_case_load_infos(struct pa_case_info *v, int n, int parallel)
{
	struct pa_exec ex[64];
	int who[64], next = 0, running = 0;
	bool *done = calloc((size_t)(n > 0 ? n : 1), sizeof(*done));

	if (done)
		load_infos_at_once(v, n, done);

	if (parallel < 1)
		parallel = 1;
	if (parallel > 64)
		parallel = 64;
	for (int k = 0; k < parallel; k++)
		who[k] = -1;
	while (done && next < n && done[next])
		next++;
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
			while (done && next < n && done[next])
				next++;
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
	free(done);
}
