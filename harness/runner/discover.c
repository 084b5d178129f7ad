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

static void copy_field(char *dst, size_t len, const char *out, const char *key)
{
	size_t kl = strlen(key);

	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == ':') {
			const char *v = p + kl + 1;
			size_t l;

			while (*v == ' ')
				v++;
			l = strcspn(v, "\n");
			snprintf(dst, len, "%.*s", (int)l, v);
			return;
		}
	}
	dst[0] = 0;
}

int pa_case_load_info(struct pa_case_info *ci)
{
	struct pa_exec e = { .path = ci->path, .arg = "--info", .timeout_ms = 10000 };
	char num[32];

	if (pa_exec(&e) || !WIFEXITED(e.status) || WEXITSTATUS(e.status)) {
		free(e.output);
		return -1;
	}
	copy_field(ci->assertion, sizeof(ci->assertion), e.output, "assertion");
	copy_field(ci->covers, sizeof(ci->covers), e.output, "covers");
	copy_field(num, sizeof(num), e.output, "timeout");
	ci->timeout = atoi(num) > 0 ? atoi(num) : 10;
	copy_field(num, sizeof(num), e.output, "privileged");
	ci->privileged = atoi(num) == 1;
	copy_field(num, sizeof(num), e.output, "destructive");
	ci->destructive = atoi(num) == 1;
	copy_field(num, sizeof(num), e.output, "alone");
	ci->alone = atoi(num) == 1;
	copy_field(ci->fix, sizeof(ci->fix), e.output, "fix");
	free(e.output);
	return 0;
}
