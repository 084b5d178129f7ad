// SPDX-License-Identifier: GPL-2.0
/*
 * The ABI map (cases/abi-map.txt): every element of the perf_event_open(2)
 * ABI with the cases that cover it or the reason none can. Parsing and
 * counting, --abi-check, and the run summary's view of what ran.
 */
#include "run.h"
#include "report/report.h"

#include <ctype.h>
#include <dirent.h>
#include <libgen.h>

int pa_abimap_parse(const char *text, const char *path, struct pa_abimap *m,
		    char *err, size_t errlen)
{
	int cap = 0, lineno = 0;

	memset(m, 0, sizeof(*m));
	for (const char *p = text; *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[512], *s, *name;

		lineno++;
		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (nl ? 1 : 0);
		for (s = line; isspace((unsigned char)*s); s++)
			;
		if (!*s || *s == '#')
			continue;
		name = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		if (*s)
			*s++ = 0;
		while (isspace((unsigned char)*s))
			s++;
		if (strlen(name) >= sizeof(m->e[0].name) || !strchr(name, '.')) {
			snprintf(err, errlen, "%s:%d: bad element '%s' (want area.name)", path, lineno, name);
			pa_abimap_free(m);
			return -1;
		}
		/* "untestable: why" (no case can check it anywhere) or
		 * "hardware: why" (a case checks it, where the hardware exists) */
		size_t kw = !strncmp(s, "untestable:", 11) ? 11 : !strncmp(s, "hardware:", 9) ? 9 : 0;

		if (*s && !kw) {
			snprintf(err, errlen, "%s:%d: after '%s' only 'untestable: reason' or 'hardware: reason' may follow", path, lineno, name);
			pa_abimap_free(m);
			return -1;
		}
		if (*s && !s[kw + strspn(s + kw, " \t")]) {
			snprintf(err, errlen, "%s:%d: '%s' is marked %.*s without a reason", path, lineno, name,
				 (int)kw - 1, s);
			pa_abimap_free(m);
			return -1;
		}
		for (int i = 0; i < m->n; i++)
			if (!strcmp(m->e[i].name, name)) {
				snprintf(err, errlen, "%s:%d: '%s' is listed twice", path, lineno, name);
				pa_abimap_free(m);
				return -1;
			}
		if (m->n == cap) {
			struct pa_abi_element *ne;

			cap = cap ? cap * 2 : 256;
			ne = realloc(m->e, (size_t)cap * sizeof(*ne));
			if (!ne) {
				snprintf(err, errlen, "out of memory");
				pa_abimap_free(m);
				return -1;
			}
			m->e = ne;
		}
		memset(&m->e[m->n], 0, sizeof(m->e[0]));
		snprintf(m->e[m->n].name, sizeof(m->e[0].name), "%s", name);
		if (*s)
			snprintf(kw == 11 ? m->e[m->n].untestable : m->e[m->n].hardware,
				 sizeof(m->e[0].untestable), "%s", s + kw + strspn(s + kw, " \t"));
		m->n++;
	}
	return 0;
}

int pa_abimap_load(const char *path, struct pa_abimap *m, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!f) {
		snprintf(err, errlen, "cannot read the ABI map %s: %s", path, strerror(errno));
		return -1;
	}
	FILE *mem = open_memstream(&text, &len);
	char buf[4096];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, mem);
	fclose(f);
	fclose(mem);
	rc = pa_abimap_parse(text, path, m, err, errlen);
	free(text);
	return rc;
}

void pa_abimap_free(struct pa_abimap *m)
{
	free(m->e);
	m->e = NULL;
	m->n = 0;
}

int pa_abimap_cover(struct pa_abimap *m, const char *covers, const char *casename,
		    FILE *out)
{
	char buf[1024], *save = NULL;
	int unknown = 0;

	snprintf(buf, sizeof(buf), "%s", covers);
	for (char *t = strtok_r(buf, " \t,", &save); t; t = strtok_r(NULL, " \t,", &save)) {
		int i;

		for (i = 0; i < m->n; i++)
			if (!strcmp(m->e[i].name, t))
				break;
		if (i == m->n) {
			unknown++;
			if (out)
				fprintf(out, "%s: covers '%s', which is not in the ABI map\n", casename, t);
			continue;
		}
		m->e[i].covered++;
	}
	return unknown;
}

struct pa_abimap_stats pa_abimap_stats(const struct pa_abimap *m)
{
	struct pa_abimap_stats s = { m->n, 0, 0, 0, 0 };

	for (int i = 0; i < m->n; i++) {
		if (m->e[i].hardware[0])
			s.hardware++;
		if (m->e[i].covered)
			s.covered++;
		else if (m->e[i].untestable[0])
			s.untestable++;
		else
			s.missing++;
	}
	return s;
}

static int by_case_name(const void *key, const void *ci)
{
	return strcmp(key, ((const struct pa_case_info *)ci)->name);
}

/*
 * Which of cases (sorted by name, as pa_discover() gives them) passed or
 * xfailed in some cell of a reference run (refdir/<kernel>/results.tsv),
 * a result recorded under a moved case's old name counting for its new one
 * (renames.txt beside the map: cases/renames.txt, build/renames.txt).
 * 0, or -1 when the references cannot be read.
 */
static int cases_ran(const char *mapdir, const char *refdir, const struct pa_case_info *cases,
		     int n, bool *ran)
{
	char path[PATH_MAX], err[PATH_MAX + 256];
	struct rp_runs runs = { 0 };
	struct rp_renames ren;

	if (rp_load(&runs, refdir, err, sizeof(err))) {
		fprintf(stderr, "perfabi-run: %s\n", err);
		rp_runs_free(&runs);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/renames.txt", mapdir);
	if (rp_renames_load(&ren, path, err, sizeof(err)) && errno != ENOENT)
		fprintf(stderr, "perfabi-run: %s: old names not followed\n", err);
	for (int k = 0; k < runs.n; k++) {
		rp_rename_run(&runs.v[k], &ren);
		for (int j = 0; j < runs.v[k].n; j++) {
			const struct pa_result *r = &runs.v[k].r[j];
			const struct pa_case_info *c;

			if (r->outcome != PA_PASS && r->outcome != PA_XFAIL)
				continue;
			c = bsearch(r->cas, cases, (size_t)n, sizeof(*cases), by_case_name);
			if (c)
				ran[c - cases] = true;
		}
	}
	rp_renames_free(&ren);
	rp_runs_free(&runs);
	return 0;
}

/*
 * An element counts as checked only where a case naming it passed (or
 * xfailed) on at least one reference kernel (results/reference/ beside the
 * map's directory): list those named only by cases that never did. Returns
 * their number, -1 when there are no reference results to look at.
 */
static int never_run_elements(const char *mappath, const struct pa_abimap *m,
			      const struct pa_case_info *cases, int n)
{
	char refdir[PATH_MAX], dir[PATH_MAX];
	const char *mapdir;
	bool *ran;
	int never = 0;

	snprintf(dir, sizeof(dir), "%s", mappath);
	mapdir = dirname(dir);
	snprintf(refdir, sizeof(refdir), "%s/../results/reference", mapdir);
	if (access(refdir, R_OK))
		return -1;
	ran = calloc((size_t)n + 1, sizeof(*ran));
	if (!ran)
		return -1;
	if (cases_ran(mapdir, refdir, cases, n, ran)) {
		free(ran);
		return -1;
	}
	for (int k = 0; k < m->n; k++) {
		char names[1024] = "";
		bool any_ran = false, named = false;
		size_t el = strlen(m->e[k].name);

		if (!m->e[k].covered || m->e[k].untestable[0] || m->e[k].hardware[0])
			continue;
		for (int i = 0; i < n; i++) {
			const char *c = cases[i].covers;

			/* a whole word of .covers */
			for (const char *h = strstr(c, m->e[k].name); h; h = strstr(h + 1, m->e[k].name))
				if ((h == c || h[-1] == ' ') && (h[el] == ' ' || !h[el])) {
					named = true;
					any_ran |= ran[i];
					if (!ran[i] && strlen(names) + strlen(cases[i].name) + 3 < sizeof(names))
						snprintf(names + strlen(names), sizeof(names) - strlen(names),
							 "%s%s", names[0] ? " " : "", cases[i].name);
					break;
				}
		}
		if (named && !any_ran) {
			printf("%s: named but never run: no case naming it passed on a reference kernel (%s)\n",
			       m->e[k].name, names);
			never++;
		}
	}
	free(ran);
	return never;
}

/* --abi-check: every map element has a case or a reason; cases name only
 * map elements. */
int pa_abi_check(const char *map, const struct pa_case_info *cases, int n)
{
	struct pa_abimap m;
	struct pa_abimap_stats st;
	char err[512];
	int unknown = 0, never;

	if (pa_abimap_load(map, &m, err, sizeof(err))) {
		fprintf(stderr, "perfabi-run: %s\n", err);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		if (cases[i].timeout < 0) {
			printf("%s: '--info' failed\n", cases[i].name);
			unknown++;
			continue;
		}
		if (!cases[i].covers[0]) {
			printf("%s: names no ABI element in .covers\n", cases[i].name);
			unknown++;
		}
		unknown += pa_abimap_cover(&m, cases[i].covers, cases[i].name, stdout);
	}
	st = pa_abimap_stats(&m);
	for (int i = 0; i < m.n; i++)
		if (!m.e[i].covered && !m.e[i].untestable[0])
			printf("%s: no case covers it and it is not marked untestable\n", m.e[i].name);
	never = never_run_elements(map, &m, cases, n);
	for (int i = 0; i < m.n; i++)
		if (m.e[i].hardware[0])
			printf("%s: hardware only: %s\n", m.e[i].name, m.e[i].hardware);
	printf("# ABI map %s: %d elements, %d covered by %d cases (%d of them only by cases that never passed on a reference kernel, %d more only by cases that need hardware the references lack), %d untestable with a reason, %d missing\n",
	       map, st.total, st.covered, n, never < 0 ? 0 : never, st.hardware, st.untestable, st.missing);
	pa_abimap_free(&m);
	return st.missing || unknown ? 1 : 0;
}

/* The run summary's view of the map: what the cases that ran cover. */
bool pa_abi_coverage(const char *path, const struct pa_case_info *cases, int n,
		     struct pa_abimap_stats *st)
{
	struct pa_abimap m;
	char err[512];

	if (access(path, R_OK) || pa_abimap_load(path, &m, err, sizeof(err)))
		return false;
	for (int i = 0; i < n; i++)
		pa_abimap_cover(&m, cases[i].covers, cases[i].name, NULL);
	*st = pa_abimap_stats(&m);
	pa_abimap_free(&m);
	return true;
}
