// SPDX-License-Identifier: GPL-2.0
/*
 * perfabi-report's logic: parse results.tsv, compare two runs, build the
 * case x (kernel, identity, paranoid) matrix and write it as text, HTML
 * and JUnit XML. Unit-tested in tests/unit/test_report.c.
 */
#include "report.h"
#include "lib/internal.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The outcomes in the order the report lists them (legend, counts). */
static const enum pa_outcome listed[] = { PA_PASS, PA_FAIL, PA_SKIP, PA_XFAIL, PA_XPASS, PA_MISSING };

static char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		abort();
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		abort();
	return p;
}

int rp_parse_line(const char *line, struct pa_result *r)
{
	const char *f[4] = { NULL, NULL, NULL, NULL };
	size_t len[4] = { 0, 0, 0, 0 };
	const char *p = line, *end = line + strcspn(line, "\r\n");
	int nf = 0;
	char word[16];
	int o;

	memset(r, 0, sizeof(*r));
	while (nf < 4) {
		const char *tab = memchr(p, '\t', (size_t)(end - p));

		f[nf] = p;
		/* the detail (last field) may itself hold tabs */
		if (!tab || nf == 3) {
			len[nf++] = (size_t)(end - p);
			break;
		}
		len[nf++] = (size_t)(tab - p);
		p = tab + 1;
	}
	if (nf < 2 || !len[0] || len[1] >= sizeof(word))
		return -1;
	memcpy(word, f[1], len[1]);
	word[len[1]] = 0;
	o = pa_outcome_parse(word);
	if (o < 0)
		return -1;
	r->outcome = (enum pa_outcome)o;
	{
		char *name = xstrndup(f[0], len[0]);

		pa_result_name(r, name);
		free(name);
	}
	r->duration_ms = nf > 2 ? strtol(f[2], NULL, 10) : 0;
	snprintf(r->detail, sizeof(r->detail), "%.*s", nf > 3 ? (int)len[3] : 0, nf > 3 ? f[3] : "");
	/* results written by anything else (an older runner, a hand) may
	 * hold bytes that are not UTF-8: the XML and HTML must not */
	pa_text_sanitize(r->name, false);
	pa_text_sanitize(r->cas, false);
	pa_text_sanitize(r->cell, false);
	pa_text_sanitize(r->detail, false);
	return 0;
}

void rp_result_free(struct pa_result *r)
{
	memset(r, 0, sizeof(*r));
}

int rp_parse_text(struct rp_run *run, const char *text, char *err, size_t errlen)
{
	int lineno = 0;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		struct pa_result r;

		lineno++;
		if (l && !(l == 1 && p[0] == '\r')) {
			char *line = xstrndup(p, l);
			int bad = rp_parse_line(line, &r);

			free(line);
			if (bad) {
				snprintf(err, errlen, "%s/results.tsv:%d: not a result line (name, outcome, duration_ms, detail)",
					 run->dir ? run->dir : "-", lineno);
				return -1;
			}
			if (run->n == run->cap) {
				run->cap = run->cap ? run->cap * 2 : 64;
				run->r = xrealloc(run->r, (size_t)run->cap * sizeof(*run->r));
			}
			run->r[run->n++] = r;
		}
		p += l + (nl ? 1 : 0);
	}
	return 0;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = xrealloc(buf, cap + 1);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = 0;
	return buf;
}

static const char *base_name(const char *dir)
{
	size_t l = strlen(dir);
	static char buf[512];

	while (l > 1 && dir[l - 1] == '/')
		l--;
	snprintf(buf, sizeof(buf), "%.*s", (int)l, dir);
	{
		char *s = strrchr(buf, '/');

		return s ? s + 1 : buf;
	}
}

static int load_one(struct rp_runs *runs, const char *dir, char *err, size_t errlen)
{
	char path[4096];
	char *text;
	struct rp_run run;

	snprintf(path, sizeof(path), "%s/results.tsv", dir);
	text = read_file(path);
	if (!text) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	memset(&run, 0, sizeof(run));
	run.dir = xstrndup(dir, strlen(dir));
	{
		/* a default run id, <YYYYmmdd-HHMMSS>-<release>: the release */
		const char *b = base_name(dir);
		bool stamp = strlen(b) > 16 && b[8] == '-' && b[15] == '-';

		for (int i = 0; stamp && i < 15; i++)
			stamp = i == 8 || (b[i] >= '0' && b[i] <= '9');
		if (stamp)
			b += 16;
		run.label = xstrndup(b, strlen(b));
	}
	if (rp_parse_text(&run, text, err, errlen)) {
		free(text);
		rp_run_free(&run);
		return -1;
	}
	free(text);
	/* the same label twice (two runs of one kernel): number them */
	for (int i = 0, k = 2; i < runs->n; i++)
		if (!strcmp(runs->v[i].label, run.label)) {
			char *l = malloc(strlen(run.label) + 16);

			sprintf(l, "%s#%d", run.label, k++);
			free(run.label);
			run.label = l;
			i = -1;
		}
	if (runs->n == runs->cap) {
		runs->cap = runs->cap ? runs->cap * 2 : 8;
		runs->v = xrealloc(runs->v, (size_t)runs->cap * sizeof(*runs->v));
	}
	runs->v[runs->n++] = run;
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Kernel directories in version order: 6.1, 6.12, 6.12-cloud, 6.12-rt. */
static int version_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int rp_load(struct rp_runs *runs, const char *dir, char *err, size_t errlen)
{
	char path[4096];
	struct stat st;
	DIR *d;
	struct dirent *e;
	char **subs = NULL;
	int nsubs = 0, rc = 0;

	errno = 0;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: not a run directory%s%s", dir,
			 errno ? ": " : "", errno ? strerror(errno) : "");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/results.tsv", dir);
	if (!access(path, F_OK))
		return load_one(runs, dir, err, errlen);
	d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/results.tsv", dir, e->d_name);
		if (access(path, F_OK))
			continue;
		subs = xrealloc(subs, (size_t)(nsubs + 1) * sizeof(*subs));
		subs[nsubs++] = xstrndup(e->d_name, strlen(e->d_name));
	}
	closedir(d);
	if (!nsubs) {
		snprintf(err, errlen, "%s: no results.tsv in it or in its subdirectories", dir);
		free(subs);
		return -1;
	}
	qsort(subs, (size_t)nsubs, sizeof(*subs), version_cmp);
	for (int i = 0; i < nsubs; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, subs[i]);
		if (!rc && load_one(runs, path, err, errlen))
			rc = -1;
		free(subs[i]);
	}
	free(subs);
	return rc;
}

void rp_run_free(struct rp_run *run)
{
	for (int i = 0; i < run->n; i++)
		rp_result_free(&run->r[i]);
	free(run->r);
	free(run->dir);
	free(run->label);
	memset(run, 0, sizeof(*run));
}

void rp_runs_free(struct rp_runs *runs)
{
	for (int i = 0; i < runs->n; i++)
		rp_run_free(&runs->v[i]);
	free(runs->v);
	memset(runs, 0, sizeof(*runs));
}

const struct pa_result *rp_find(const struct rp_run *run, const char *name)
{
	for (int i = 0; i < run->n; i++)
		if (!strcmp(run->r[i].name, name))
			return &run->r[i];
	return NULL;
}

/* ------------------------------------------------------------- renames */

/* "area/case": one '/', something on both sides, no '@' (that is a cell) */
static bool case_name_ok(const char *s, size_t len)
{
	const char *slash = memchr(s, '/', len);

	if (!slash || slash == s || slash == s + len - 1 || len >= sizeof(((struct pa_result *)0)->cas))
		return false;
	return !memchr(slash + 1, '/', len - (size_t)(slash + 1 - s)) && !memchr(s, '@', len);
}

static const char *renames_next(const struct rp_renames *m, const char *cas)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->from[i], cas))
			return m->to[i];
	return NULL;
}

const char *rp_renamed(const struct rp_renames *m, const char *cas)
{
	const char *now = NULL, *next;

	/* at most n moves: rp_renames_parse() refuses a circle */
	for (int hops = 0; hops < m->n && (next = renames_next(m, now ? now : cas)); hops++)
		now = next;
	return now;
}

/* One line's two names into w[]; 0 for a blank or comment line, 2 for a
 * move, -1 for anything else. */
static int renames_words(const char *line, size_t l, const char *w[2], size_t wl[2])
{
	const char *p = line, *end = line + l;
	const char *hash = memchr(line, '#', l);
	int nw = 0;

	if (hash)
		end = hash;
	while (p < end) {
		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == end)
			break;
		if (nw == 2)
			return -1;
		w[nw] = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		wl[nw] = (size_t)(p - w[nw]);
		nw++;
	}
	return nw == 1 ? -1 : nw;
}

int rp_renames_parse(struct rp_renames *m, const char *text, const char *what,
		     char *err, size_t errlen)
{
	int lineno = 0;

	memset(m, 0, sizeof(*m));
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		const char *w[2];
		size_t wl[2];
		int nw = renames_words(p, l, w, wl);

		lineno++;
		p += l + (nl ? 1 : 0);
		if (!nw)
			continue;
		if (nw < 0 || !case_name_ok(w[0], wl[0]) || !case_name_ok(w[1], wl[1]) ||
		    (wl[0] == wl[1] && !memcmp(w[0], w[1], wl[0]))) {
			snprintf(err, errlen, "%s:%d: not a move \"OLD-AREA/CASE NEW-AREA/CASE\"", what, lineno);
			rp_renames_free(m);
			return -1;
		}
		m->from = xrealloc(m->from, (size_t)(m->n + 1) * sizeof(*m->from));
		m->to = xrealloc(m->to, (size_t)(m->n + 1) * sizeof(*m->to));
		m->from[m->n] = xstrndup(w[0], wl[0]);
		m->to[m->n] = xstrndup(w[1], wl[1]);
		if (renames_next(m, m->from[m->n])) {
			snprintf(err, errlen, "%s:%d: %s moved twice from the same name", what, lineno, m->from[m->n]);
			m->n++;
			rp_renames_free(m);
			return -1;
		}
		m->n++;
	}
	/* a chain of moves that comes back to a name it passed never ends */
	for (int i = 0; i < m->n; i++) {
		const char *now = m->from[i];

		for (int hops = 0; now && hops <= m->n; hops++) {
			now = renames_next(m, now);
			if (now && !strcmp(now, m->from[i])) {
				snprintf(err, errlen, "%s: the moves of %s go round in a circle", what, m->from[i]);
				rp_renames_free(m);
				return -1;
			}
		}
	}
	return 0;
}

int rp_renames_load(struct rp_renames *m, const char *path, char *err, size_t errlen)
{
	char *text = read_file(path);
	int rc;

	memset(m, 0, sizeof(*m));
	if (!text) {
		int e = errno;

		snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
		errno = e;
		return -1;
	}
	rc = rp_renames_parse(m, text, path, err, errlen);
	free(text);
	return rc;
}

void rp_renames_free(struct rp_renames *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->from[i]);
		free(m->to[i]);
	}
	free(m->from);
	free(m->to);
	memset(m, 0, sizeof(*m));
}

int rp_rename_run(struct rp_run *run, const struct rp_renames *m)
{
	int renamed = 0;

	for (int i = 0; i < run->n; i++) {
		struct pa_result *r = &run->r[i];
		const char *now = rp_renamed(m, r->cas);
		char name[sizeof(r->name)];

		if (!now)
			continue;
		snprintf(name, sizeof(name), "%s%s%s", now, r->cell[0] ? "@" : "", r->cell);
		pa_result_name(r, name);
		renamed++;
	}
	return renamed;
}

/* ------------------------------------------------------------- compare */

enum change { CH_REGRESSED, CH_FIXED, CH_SKIPPED, CH_UNSKIPPED, CH_ADDED, CH_REMOVED, CH_OTHER, CH_N };

static const char *const change_titles[CH_N] = {
	"regressions (pass -> fail)", "fixed (fail -> pass)", "newly skipped",
	"no longer skipped", "new results (only in B)", "removed results (only in A)",
	"other changes",
};

static bool good(enum pa_outcome o)
{
	return o == PA_PASS || o == PA_XFAIL || o == PA_XPASS;
}

static int classify(enum pa_outcome a, enum pa_outcome b)
{
	if (a == b)
		return -1;
	if (a == PA_MISSING)
		return CH_ADDED;
	if (b == PA_MISSING)
		return CH_REMOVED;
	if (good(a) && b == PA_FAIL)
		return CH_REGRESSED;
	if (a == PA_FAIL && good(b))
		return CH_FIXED;
	if (b == PA_SKIP)
		return CH_SKIPPED;
	if (a == PA_SKIP && b != PA_FAIL)
		return CH_UNSKIPPED;
	return CH_OTHER;
}

int rp_compare(const struct rp_run *a, const struct rp_run *b, FILE *out,
	       struct rp_diff *d)
{
	return rp_compare_ex(a, b, out, d, true);
}

int rp_compare_ex(const struct rp_run *a, const struct rp_run *b, FILE *out,
		  struct rp_diff *d, bool list_unpaired)
{
	memset(d, 0, sizeof(*d));
	for (int kind = 0; kind < CH_N; kind++) {
		bool titled = false;

		/* A's results in A's order, then B's new ones in B's order */
		for (int pass = 0; pass < 2; pass++) {
			const struct rp_run *x = pass ? b : a, *y = pass ? a : b;

			for (int i = 0; i < x->n; i++) {
				const struct pa_result *rx = &x->r[i];
				const struct pa_result *ry = rp_find(y, rx->name);
				const struct pa_result *ra = pass ? ry : rx, *rb = pass ? rx : ry;
				enum pa_outcome oa = ra ? ra->outcome : PA_MISSING;
				enum pa_outcome ob = rb ? rb->outcome : PA_MISSING;
				int c;

				if (pass && ry)
					continue;	/* counted in the first pass */
				c = classify(oa, ob);
				if (c != kind)
					continue;
				if (out && (list_unpaired || (kind != CH_ADDED && kind != CH_REMOVED))) {
					const char *why = rb && rb->detail[0] ? rb->detail :
							  ra && ra->detail[0] ? ra->detail : "";

					if (!titled)
						fprintf(out, "## %s\n", change_titles[kind]);
					titled = true;
					fprintf(out, "  %-7s -> %-7s %s%s%s\n", pa_outcome_name(oa),
						pa_outcome_name(ob), rx->name, why[0] ? "  # " : "", why);
				}
				switch (kind) {
				case CH_REGRESSED: d->regressed++; break;
				case CH_FIXED: d->fixed++; break;
				case CH_SKIPPED: d->newly_skipped++; break;
				case CH_UNSKIPPED: d->unskipped++; break;
				case CH_ADDED: d->added++; break;
				case CH_REMOVED: d->removed++; break;
				default: d->other++; break;
				}
			}
		}
	}
	for (int i = 0; i < a->n; i++) {
		const struct pa_result *rb = rp_find(b, a->r[i].name);

		if (rb && rb->outcome == a->r[i].outcome)
			d->same++;
	}
	return d->regressed;
}

/* -------------------------------------------------------------- matrix */

static const char *const id_order[] = { "root", "perfmon", "sysadmin", "user" };

static void cell_key(const char *cell, int *level, int *id)
{
	const char *p = strstr(cell, "paranoid=");

	*level = p ? atoi(p + 9) : 99;
	*id = 9;
	for (int i = 0; i < 4; i++) {
		size_t l = strlen(id_order[i]);

		if (!strncmp(cell, id_order[i], l) && (cell[l] == ',' || !cell[l]))
			*id = i;
	}
}

int rp_cell_cmp(const char *a, const char *b)
{
	int la, ia, lb, ib;

	cell_key(a, &la, &ia);
	cell_key(b, &lb, &ib);
	if (la != lb)
		return la < lb ? -1 : 1;
	if (ia != ib)
		return ia < ib ? -1 : 1;
	return strcmp(a, b);
}

static int cell_qcmp(const void *a, const void *b)
{
	return rp_cell_cmp(*(const char *const *)a, *(const char *const *)b);
}

int rp_matrix_build(struct rp_matrix *m, const struct rp_runs *runs)
{
	memset(m, 0, sizeof(*m));
	for (int k = 0; k < runs->n; k++) {
		const struct rp_run *run = &runs->v[k];
		const char **cells = NULL;
		int ncells = 0;

		for (int i = 0; i < run->n; i++) {
			bool seen = false;

			for (int c = 0; c < ncells && !seen; c++)
				seen = !strcmp(cells[c], run->r[i].cell);
			if (!seen) {
				cells = xrealloc(cells, (size_t)(ncells + 1) * sizeof(*cells));
				cells[ncells++] = run->r[i].cell;
			}
			seen = false;
			for (int c = 0; c < m->ncases && !seen; c++)
				seen = !strcmp(m->cases[c], run->r[i].cas);
			if (!seen) {
				m->cases = xrealloc(m->cases, (size_t)(m->ncases + 1) * sizeof(*m->cases));
				m->cases[m->ncases++] = run->r[i].cas;
			}
		}
		if (ncells)
			qsort(cells, (size_t)ncells, sizeof(*cells), cell_qcmp);
		m->cols = xrealloc(m->cols, (size_t)(m->ncols + ncells) * sizeof(*m->cols));
		for (int c = 0; c < ncells; c++) {
			m->cols[m->ncols].run = run;
			m->cols[m->ncols++].cell = cells[c];
		}
		free(cells);
	}
	if (m->ncases)
		qsort(m->cases, (size_t)m->ncases, sizeof(*m->cases), name_cmp);
	return 0;
}

void rp_matrix_free(struct rp_matrix *m)
{
	free(m->cases);
	free(m->cols);
	memset(m, 0, sizeof(*m));
}

const struct pa_result *rp_matrix_at(const struct rp_matrix *m, int c, const char *cas)
{
	const struct rp_run *run = m->cols[c].run;

	for (int i = 0; i < run->n; i++)
		if (!strcmp(run->r[i].cas, cas) && !strcmp(run->r[i].cell, m->cols[c].cell))
			return &run->r[i];
	return NULL;
}

static const char outcome_char[] = {
	[PA_PASS] = 'P', [PA_FAIL] = 'F', [PA_SKIP] = 's', [PA_XFAIL] = 'x', [PA_XPASS] = 'X',
	[PA_MISSING] = '.',
};

/* "user,paranoid=2" -> "user/2" */
static void short_cell(const char *cell, char *buf, size_t len)
{
	const char *p = strstr(cell, ",paranoid=");

	if (!cell[0])
		snprintf(buf, len, "-");
	else if (p)
		snprintf(buf, len, "%.*s/%s", (int)(p - cell), cell, p + 10);
	else
		snprintf(buf, len, "%s", cell);
}

void rp_matrix_text(FILE *f, const struct rp_matrix *m, bool colour)
{
	static const char *const col_esc[] = {
		[PA_PASS] = "\033[32m", [PA_FAIL] = "\033[1;31m", [PA_SKIP] = "\033[2m",
		[PA_XFAIL] = "\033[33m", [PA_XPASS] = "\033[35m", [PA_MISSING] = "\033[2m",
	};
	int w = 4;

	for (int i = 0; i < m->ncases; i++)
		if ((int)strlen(m->cases[i]) > w)
			w = (int)strlen(m->cases[i]);
	fprintf(f, "# columns:\n");
	for (int c = 0; c < m->ncols; c++) {
		char sc[64];

		short_cell(m->cols[c].cell, sc, sizeof(sc));
		fprintf(f, "#  %3d  %s %s\n", c + 1, m->cols[c].run->label, sc);
	}
	fprintf(f, "# P pass  F fail  s skip  x xfail  X xpass  . not run\n");
	/* the column numbers, written vertically (tens, then units) */
	for (int digit = 100; digit >= 1; digit /= 10) {
		if (digit > 1 && m->ncols < digit)
			continue;
		fprintf(f, "%*s ", w, "");
		for (int c = 0; c < m->ncols; c++) {
			int n = c + 1;

			fputc(n >= digit || digit == 1 ? '0' + (n / digit) % 10 : ' ', f);
			if (c + 1 < m->ncols && m->cols[c + 1].run != m->cols[c].run)
				fputc(' ', f);
		}
		fputc('\n', f);
	}
	for (int i = 0; i < m->ncases; i++) {
		fprintf(f, "%-*s ", w, m->cases[i]);
		for (int c = 0; c < m->ncols; c++) {
			const struct pa_result *r = rp_matrix_at(m, c, m->cases[i]);
			enum pa_outcome o = r ? r->outcome : PA_MISSING;

			if (colour)
				fprintf(f, "%s%c\033[0m", col_esc[o], outcome_char[o]);
			else
				fputc(outcome_char[o], f);
			if (c + 1 < m->ncols && m->cols[c + 1].run != m->cols[c].run)
				fputc(' ', f);
		}
		fputc('\n', f);
	}
	/* per column: the failures, to make the table actionable */
	for (int c = 0; c < m->ncols; c++) {
		const struct rp_run *run = m->cols[c].run;

		for (int i = 0; i < run->n; i++)
			if (run->r[i].outcome == PA_FAIL && !strcmp(run->r[i].cell, m->cols[c].cell))
				fprintf(f, "# FAIL [%s] %s: %s\n", run->label, run->r[i].name,
					run->r[i].detail);
	}
}

void rp_xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\n': fputs("&#10;", f); break;
		case '\t': fputs("&#9;", f); break;
		default:
			if (ch < 0x20)
				fputc(' ', f);
			else
				fputc(ch, f);
		}
	}
}

static void count_run(const struct rp_run *run, const char *cell, int n[6])
{
	memset(n, 0, 6 * sizeof(int));
	for (int i = 0; i < run->n; i++)
		if (!cell || !strcmp(run->r[i].cell, cell))
			n[run->r[i].outcome]++;
}

/* The worst outcome of a case over the cells of one run: fail, xpass,
 * xfail, pass, skip; PA_MISSING when it did not run there at all. */
static enum pa_outcome worst(const struct rp_run *run, const char *cas, int *ncells)
{
	static const int rank[] = { [PA_FAIL] = 5, [PA_XPASS] = 4, [PA_XFAIL] = 3,
				    [PA_PASS] = 2, [PA_SKIP] = 1, [PA_MISSING] = 0 };
	enum pa_outcome w = PA_MISSING;

	*ncells = 0;
	for (int i = 0; i < run->n; i++)
		if (!strcmp(run->r[i].cas, cas)) {
			(*ncells)++;
			if (rank[run->r[i].outcome] > rank[w])
				w = run->r[i].outcome;
		}
	return w;
}

/* Which side of an ABI change a case's passes in run saw: "old", "new",
 * "old+new" (different cells differ), or "" (not version-gated). */
static const char *variant(const struct rp_run *run, const char *cas)
{
	bool old = false, new = false;

	for (int j = 0; j < run->n; j++) {
		const struct pa_result *r = &run->r[j];

		if (r->outcome != PA_PASS || strcmp(r->cas, cas))
			continue;
		old |= !strncmp(r->detail, "old behaviour", 13);
		new |= !strncmp(r->detail, "new behaviour", 13);
	}
	return old && new ? "old+new" : old ? "old" : new ? "new" : "";
}

/* Whether two result sets gave this case different outcomes in a cell
 * (identity, paranoid level) both ran. */
static bool row_differs(const struct rp_matrix *m, const char *cas)
{
	for (int a = 0; a < m->ncols; a++) {
		const struct pa_result *ra = rp_matrix_at(m, a, cas);

		if (!ra)
			continue;
		for (int b = a + 1; b < m->ncols; b++) {
			const struct pa_result *rb;

			if (m->cols[b].run == m->cols[a].run || strcmp(m->cols[a].cell, m->cols[b].cell))
				continue;
			rb = rp_matrix_at(m, b, cas);
			if (rb && rb->outcome != ra->outcome)
				return true;
		}
	}
	return false;
}

/* A case's row as far as its name: a line above the first case of an
 * area, and class "same" where no cell differs between result sets. */
static void html_row_head(FILE *f, const struct rp_matrix *m, int i)
{
	bool area = i && strncmp(m->cases[i], m->cases[i - 1], strcspn(m->cases[i], "/") + 1);
	bool differs = row_differs(m, m->cases[i]);

	fprintf(f, "<tr%s%s%s><th class=\"case\">", area || !differs ? " class=\"" : "",
		area ? (differs ? "area" : "area same") : (differs ? "" : "same"),
		area || !differs ? "\"" : "");
	rp_xml_str(f, m->cases[i]);
	fputs("</th>", f);
}

/* One column per run: a case's worst outcome over its cells, so that the
 * kernels fit side by side on one screen. */
static void overview_html(FILE *f, const struct rp_matrix *m, const struct rp_runs *runs,
			  const char *const *sym)
{
	fputs("<h2>By kernel</h2>\n<p class=\"sub\">The worst outcome of each case over the cells it ran in "
	      "(fail, xpass, xfail, pass, skip); hover for every cell. A pass marked <b>old</b> or <b>new</b> "
	      "is an ABI that changed over time: the kernel showed the behaviour expected for its version.</p>\n"
	      "<div class=\"wrap\"><table class=\"m o\"><thead><tr class=\"k\"><th class=\"case\">case</th>", f);
	for (int k = 0; k < runs->n; k++) {
		fputs("<th class=\"first\">", f);
		rp_xml_str(f, runs->v[k].label);
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (int i = 0; i < m->ncases; i++) {
		html_row_head(f, m, i);
		for (int k = 0; k < runs->n; k++) {
			const struct rp_run *run = &runs->v[k];
			int n;
			enum pa_outcome o = worst(run, m->cases[i], &n);
			const char *v;

			fprintf(f, "<td class=\"%s first\" title=\"", pa_outcome_name(o));
			rp_xml_str(f, run->label);
			fputs(": ", f);
			rp_xml_str(f, m->cases[i]);
			if (!n)
				fputs(" \xe2\x80\x94 not run", f);
			for (int j = 0; j < run->n; j++) {
				const struct pa_result *r = &run->r[j];

				if (strcmp(r->cas, m->cases[i]))
					continue;
				fputs("&#10;", f);
				rp_xml_str(f, r->cell);
				fprintf(f, ": %s", pa_outcome_name(r->outcome));
				if (r->detail[0]) {
					fputs(" \xe2\x80\x94 ", f);
					rp_xml_str(f, r->detail);
				}
			}
			fprintf(f, "\">%s", sym[o]);
			v = o == PA_PASS ? variant(run, m->cases[i]) : "";
			if (*v)
				fprintf(f, " <small>%s</small>", v);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/* Separators: " first" before a kernel's columns, " lv" before a level's. */
static const char *col_sep(const struct rp_matrix *m, int c)
{
	const char *a, *b;

	if (c == 0 || m->cols[c - 1].run != m->cols[c].run)
		return " first";
	a = strstr(m->cols[c - 1].cell, "paranoid=");
	b = strstr(m->cols[c].cell, "paranoid=");
	if (a && b && strcmp(a, b))
		return " lv";
	return " ";
}

/* The outcome symbols of the HTML cells, by outcome. */
static const char *const html_sym[] = {
	[PA_PASS] = "&#10003;", [PA_FAIL] = "&#10007;", [PA_SKIP] = "&ndash;",
	[PA_XFAIL] = "x", [PA_XPASS] = "!", [PA_MISSING] = "",
};

/* The page's head: its style sheet and title. */
static void html_head(FILE *f)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<title>perfabi matrix</title>\n<style>\n"
	      "body{font:14px/1.35 system-ui,-apple-system,'Segoe UI',sans-serif;margin:16px;color:#1d2329;background:#fff}\n"
	      "h1{font-size:20px;margin:0 0 4px}\n"
	      "p.sub{margin:0 0 12px;color:#555}\n"
	      ".legend span,.cnt span{display:inline-block;margin-right:14px}\n"
	      ".legend{margin:8px 0 12px}\n"
	      ".sw{display:inline-block;width:18px;height:16px;border-radius:3px;vertical-align:-3px;margin-right:5px;text-align:center;font-size:12px;line-height:16px}\n"
	      "table.runs{border-collapse:collapse;margin-bottom:14px}\n"
	      "table.runs td,table.runs th{padding:3px 10px;border-bottom:1px solid #e3e6ea;text-align:left}\n"
	      "table.runs td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	      "div.wrap{overflow:auto;max-height:88vh;max-width:100%;width:max-content;border:1px solid #d0d5da}\n"
	      "table.m{border-collapse:separate;border-spacing:0}\n"
	      "table.m th,table.m td{border-right:1px solid #fff;border-bottom:1px solid #fff}\n"
	      "table.m thead th{position:sticky;background:#f4f6f8;z-index:2;font-weight:600}\n"
	      "table.m thead tr.k th{top:0;height:22px;border-bottom:1px solid #c9ced4;border-left:2px solid #9aa3ad}\n"
	      "table.m thead tr.c th{top:23px;height:96px;vertical-align:bottom;padding:2px 0;font-weight:500;font-size:12px;border-bottom:1px solid #9aa3ad}\n"
	      "table.m thead tr.c th div{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;margin:0 auto}\n"
	      "table.m th.case{position:sticky;left:0;z-index:3;text-align:left;padding:1px 10px 1px 6px;background:#fff;"
	      "font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:nowrap;border-right:1px solid #c9ced4}\n"
	      "table.m thead th.case{background:#f4f6f8;z-index:4}\n"
	      "table.m tbody tr:nth-child(even) th.case{background:#f7f8fa}\n"
	      "table.m tbody tr:hover th.case{background:#e8f0fe}\n"
	      "table.m tbody tr.area>*{border-top:2px solid #9aa3ad}\n"
	      "table.m td{width:22px;min-width:22px;height:20px;text-align:center;font-size:12px;color:#fff;cursor:default}\n"
	      "table.m td.lv,table.m thead tr.c th.lv{border-left:1px solid #aab2bb}\n"
	      "table.m td.first,table.m thead tr.c th.first{border-left:2px solid #7d8893}\n"
	      ".pass{background:#2e9e4f}.fail{background:#d62f2f;font-weight:700}.skip{background:#c6ccd2;color:#3c444c!important}\n"
	      ".xfail{background:#e89b1e}.xpass{background:#8e44ad}.missing{background:repeating-linear-gradient(45deg,#fff,#fff 3px,#eceff2 3px,#eceff2 6px)}\n"
	      "h2{font-size:16px;margin:18px 0 4px}\n"
	      "table.m.o thead tr.k th{height:auto;padding:4px 8px;white-space:nowrap}\n"
	      "table.m.o td{min-width:64px}\n"
	      "ul.fails{font:12.5px ui-monospace,Menlo,Consolas,monospace;padding-left:18px}\n"
	      "ul.fails li{margin:2px 0}\n"
	      "#differ:checked ~ .wrap tr.same { display: none; }\n"
	      "</style></head><body>\n<h1>perfabi: perf_event_open(2) ABI results</h1>\n", f);
}

/* What the page shows, the legend, and one line of counts per result set. */
static void html_summary(FILE *f, const struct rp_matrix *m, const struct rp_runs *runs)
{
	fprintf(f, "<p class=\"sub\">%d cases &times; %d columns (kernel &times; identity, paranoid level) from %d result set%s. "
		"Columns are <i>identity/paranoid level</i>. Hover a cell for the result name and the skip reason or diagnostic.</p>\n",
		m->ncases, m->ncols, runs->n, runs->n == 1 ? "" : "s");
	fputs("<div class=\"legend\">", f);
	for (size_t i = 0; i < sizeof(listed) / sizeof(listed[0]); i++) {
		enum pa_outcome o = listed[i];

		fprintf(f, "<span><span class=\"sw %s\"%s>%s</span>%s</span>",
			pa_outcome_name(o), o == PA_SKIP ? "" : " style=\"color:#fff\"", html_sym[o], o == PA_MISSING ? "not run in this cell" : pa_outcome_name(o));
	}
	fputs("</div>\n<table class=\"runs\"><tr><th>result set</th><th>directory</th>"
	      "<th>pass</th><th>fail</th><th>skip</th><th>xfail</th><th>xpass</th></tr>\n", f);
	for (int k = 0; k < runs->n; k++) {
		int n[6];

		count_run(&runs->v[k], NULL, n);
		fputs("<tr><td><b>", f);
		rp_xml_str(f, runs->v[k].label);
		fputs("</b></td><td>", f);
		rp_xml_str(f, runs->v[k].dir);
		fputs("</td>", f);
		for (size_t i = 0; i + 1 < sizeof(listed) / sizeof(listed[0]); i++)
			fprintf(f, "<td class=\"n\">%d</td>", n[listed[i]]);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* The grid's heading: one column group per result set, one column per cell. */
static void html_grid_head(FILE *f, const struct rp_matrix *m, const struct rp_runs *runs)
{
	fputs("<h2>Every cell</h2>\n<p class=\"sub\">One column per kernel (or run) &times; identity/paranoid level. "
	      "Privilege-sensitive cases run in every cell, the others as root and user at the kernel's own level.</p>\n", f);
	if (runs->n > 1)
		fputs("<input type=\"checkbox\" id=\"differ\"><label for=\"differ\"> only the cases whose "
		      "outcome differs between result sets in a cell both ran</label>\n", f);
	fputs("<div class=\"wrap\"><table class=\"m\"><thead><tr class=\"k\"><th class=\"case\" rowspan=\"2\">case</th>", f);
	for (int c = 0; c < m->ncols;) {
		int span = 1;

		while (c + span < m->ncols && m->cols[c + span].run == m->cols[c].run)
			span++;
		fprintf(f, "<th colspan=\"%d\">", span);
		rp_xml_str(f, m->cols[c].run->label);
		fputs("</th>", f);
		c += span;
	}
	fputs("</tr>\n<tr class=\"c\">", f);
	for (int c = 0; c < m->ncols; c++) {
		char sc[64];
		int n[6];

		short_cell(m->cols[c].cell, sc, sizeof(sc));
		count_run(m->cols[c].run, m->cols[c].cell, n);
		fprintf(f, "<th class=\"%s\" title=\"", col_sep(m, c) + 1);
		rp_xml_str(f, m->cols[c].run->label);
		fputc(' ', f);
		rp_xml_str(f, m->cols[c].cell);
		fprintf(f, ": %d pass, %d fail, %d skip, %d xfail, %d xpass\"><div>", n[PA_PASS], n[PA_FAIL], n[PA_SKIP], n[PA_XFAIL], n[PA_XPASS]);
		rp_xml_str(f, sc);
		fputs("</div></th>", f);
	}
}

/* One row per case, one cell per column, its result in the title. */
static void html_grid_rows(FILE *f, const struct rp_matrix *m)
{
	for (int i = 0; i < m->ncases; i++) {
		html_row_head(f, m, i);
		for (int c = 0; c < m->ncols; c++) {
			const struct pa_result *r = rp_matrix_at(m, c, m->cases[i]);
			enum pa_outcome o = r ? r->outcome : PA_MISSING;
			fprintf(f, "<td class=\"%s%s\" title=\"", pa_outcome_name(o), col_sep(m, c));
			rp_xml_str(f, m->cols[c].run->label);
			fputs(": ", f);
			rp_xml_str(f, m->cases[i]);
			fputc('@', f);
			rp_xml_str(f, m->cols[c].cell);
			fprintf(f, " \xe2\x80\x94 %s", o == PA_MISSING ? "not run" : pa_outcome_name(o));
			if (r && r->detail[0]) {
				fputs(": ", f);
				rp_xml_str(f, r->detail);
			}
			fprintf(f, "\">%s</td>", html_sym[o]);
		}
		fputs("</tr>\n", f);
	}
}

/* The failures in full, below the grid. */
static void html_failures(FILE *f, const struct rp_runs *runs)
{
	bool any = false;

	for (int k = 0; k < runs->n; k++)
		for (int i = 0; i < runs->v[k].n; i++) {
			const struct pa_result *r = &runs->v[k].r[i];

			if (r->outcome != PA_FAIL)
				continue;
			if (!any)
				fputs("<h2>Failures</h2>\n<ul class=\"fails\">\n", f);
			any = true;
			fputs("<li><b>", f);
			rp_xml_str(f, runs->v[k].label);
			fputs("</b> ", f);
			rp_xml_str(f, r->name);
			fputs(": ", f);
			rp_xml_str(f, r->detail);
			fputs("</li>\n", f);
		}
	if (any)
		fputs("</ul>\n", f);
}

void rp_matrix_html(FILE *f, const struct rp_matrix *m, const struct rp_runs *runs)
{
	html_head(f);
	html_summary(f, m, runs);
	overview_html(f, m, runs, html_sym);
	html_grid_head(f, m, runs);
	fputs("</tr></thead>\n<tbody>\n", f);
	html_grid_rows(f, m);
	fputs("</tbody></table></div>\n", f);
	html_failures(f, runs);
	fputs("</body></html>\n", f);
}

void rp_junit(FILE *f, const struct rp_run *run)
{
	int n[6];
	long total = 0;

	count_run(run, NULL, n);
	for (int i = 0; i < run->n; i++)
		total += run->r[i].duration_ms;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n<testsuite name=\"perfabi ", f);
	rp_xml_str(f, run->label);
	fprintf(f, "\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" time=\"%.3f\">\n",
		run->n, n[PA_FAIL], n[PA_SKIP] + n[PA_XFAIL], total / 1000.0);
	for (int i = 0; i < run->n; i++) {
		const struct pa_result *r = &run->r[i];
		const char *slash = strchr(r->cas, '/');

		fputs("  <testcase classname=\"", f);
		for (const char *p = run->label; *p; p++)	/* dots would nest */
			fputc(*p == '.' ? '_' : *p, f);
		fputc('.', f);
		if (slash)
			fprintf(f, "%.*s", (int)(slash - r->cas), r->cas);
		else
			fputs("cases", f);
		fputs("\" name=\"", f);
		rp_xml_str(f, r->name);
		fprintf(f, "\" time=\"%.3f\"", r->duration_ms / 1000.0);
		switch (r->outcome) {
		case PA_FAIL:
			fputs(">\n    <failure message=\"", f);
			rp_xml_str(f, r->detail);
			fputs("\"/>\n  </testcase>\n", f);
			break;
		case PA_SKIP:
		case PA_XFAIL:
			fprintf(f, ">\n    <skipped message=\"%s", r->outcome == PA_XFAIL ? "XFAIL: " : "");
			rp_xml_str(f, r->detail);
			fputs("\"/>\n  </testcase>\n", f);
			break;
		case PA_XPASS:
			fputs(">\n    <system-out>XPASS: ", f);
			rp_xml_str(f, r->detail);
			fputs("</system-out>\n  </testcase>\n", f);
			break;
		default:
			fputs("/>\n", f);
		}
	}
	fputs("</testsuite>\n</testsuites>\n", f);
}

/* ---- KCIDB -------------------------------------------------------------- */
bool rp_kcidb_origin_ok(const char *origin)
{
	if (!origin || !*origin)
		return false;
	for (const char *p = origin; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}

void rp_kcidb_path(char *out, size_t len, const char *name)
{
	static const char cell[] = ",paranoid=";
	size_t o = 0;

	o += (size_t)snprintf(out, len, "perfabi.");
	for (const char *p = name; *p && o + 3 < len; p++) {
		char c = *p;

		if (!strncmp(p, cell, sizeof(cell) - 1)) {
			out[o++] = '_';
			out[o++] = 'p';
			p += sizeof(cell) - 2;
			continue;
		}
		if (c == '/' || c == '@')
			c = '.';
		else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			   c == '_' || c == '-'))
			c = '_';
		/* no empty component: "a//b", a trailing '/' */
		if (c == '.' && (out[o - 1] == '.' || !p[1]))
			continue;
		out[o++] = c;
	}
	out[o] = 0;
}

const char *rp_kcidb_status(const struct pa_result *r)
{
	switch (r->outcome) {
	case PA_PASS:
	case PA_XPASS:
		return "PASS";
	case PA_SKIP:
		return "SKIP";
	case PA_MISSING:
		return "MISS";
	case PA_XFAIL:
		return "FAIL";
	default:
		/* the case binary itself broke: the kernel's state is unknown */
		if (!strncmp(r->detail, "runner: case binary exited", 26) ||
		    !strncmp(r->detail, "runner: exit status", 19) || !strncmp(r->detail, "runner: '", 9))
			return "ERROR";
		return "FAIL";
	}
}

static void kv(FILE *f, bool *first, const char *key, const char *val)
{
	if (!val || !*val)
		return;
	fprintf(f, "%s\"%s\": ", *first ? "" : ", ", key);
	pa_json_str(f, val);
	*first = false;
}

/* The kernels under test: a checkout each, or a build each (the same id:
 * one build per checkout). */
static void kcidb_kernels(FILE *f, const char *origin, const struct rp_runs *runs,
			  const struct rp_kcidb_meta *meta, bool builds)
{
	char id[1200];

	fprintf(f, ",\n\"%s\": [", builds ? "builds" : "checkouts");
	for (int k = 0; k < runs->n; k++) {
		const struct rp_kcidb_meta *m = &meta[k];
		bool first = true;

		fprintf(f, "%s\n  {", k ? "," : "");
		snprintf(id, sizeof(id), "%s:%s", origin, m->id);
		kv(f, &first, "id", id);
		kv(f, &first, "origin", origin);
		if (builds)
			kv(f, &first, "checkout_id", id);
		kv(f, &first, "comment", m->comment);
		kv(f, &first, "start_time", m->start_time);
		if (builds) {
			kv(f, &first, "architecture", m->arch);
			kv(f, &first, "config_name", m->config_name);
			/* the kernel booted and ran the suite: its build is good */
			fputs(", \"status\": \"PASS\"", f);
		} else {
			fputs(", \"valid\": true", f);
		}
		fputs(", \"misc\": {", f);
		first = true;
		kv(f, &first, "kernel_release", m->release);
		fputs("}}", f);
	}
	fputs("\n]", f);
}

void rp_kcidb(FILE *f, const char *origin, const struct rp_runs *runs,
	      const struct rp_kcidb_meta *meta)
{
	/* the schema's log_excerpt limit is 16384 characters */
	char path[600], id[1200], excerpt[4096];

	fputs("{\"version\": {\"major\": 5, \"minor\": 3}", f);
	kcidb_kernels(f, origin, runs, meta, false);
	kcidb_kernels(f, origin, runs, meta, true);
	fputs(",\n\"tests\": [", f);
	for (int k = 0, n = 0; k < runs->n; k++) {
		const struct rp_run *run = &runs->v[k];

		for (int i = 0; i < run->n; i++, n++) {
			const struct pa_result *r = &run->r[i];
			bool first = true;

			fprintf(f, "%s\n  {", n ? "," : "");
			snprintf(id, sizeof(id), "%s:%s", origin, meta[k].id);
			kv(f, &first, "build_id", id);
			snprintf(id, sizeof(id), "%s:%s/%s", origin, meta[k].id, r->name);
			kv(f, &first, "id", id);
			kv(f, &first, "origin", origin);
			rp_kcidb_path(path, sizeof(path), r->name);
			kv(f, &first, "path", path);
			fprintf(f, ", \"status\": \"%s\", \"duration\": %.3f", rp_kcidb_status(r),
				r->duration_ms / 1000.0);
			kv(f, &first, "start_time", meta[k].start_time);
			if (r->outcome == PA_XFAIL)
				snprintf(excerpt, sizeof(excerpt), "known kernel bug (perfabi XFAIL): %s", r->detail);
			else if (r->outcome == PA_XPASS)
				snprintf(excerpt, sizeof(excerpt), "passed although a known kernel bug was expected (perfabi XPASS): %s",
					 r->detail);
			else
				snprintf(excerpt, sizeof(excerpt), "%s", r->detail);
			kv(f, &first, "log_excerpt", excerpt);
			fputs(", \"misc\": {", f);
			first = true;
			kv(f, &first, "perfabi_result", r->name);
			kv(f, &first, "perfabi_outcome", pa_outcome_name(r->outcome));
			fputs("}}", f);
		}
	}
	fputs("\n]}\n", f);
}
