// SPDX-License-Identifier: GPL-2.0
/*
 * perfabi-report kcov-summary --label L --release R --groups FILE KDIR
 *
 * What ./run.sh --kcov reached of kernel/events/, from the lcov tracefiles
 * KDIR/suite.info (after the suite) and KDIR/baseline.info (after boot
 * only) that harness/tools/kcov.sh made: KDIR/table.txt (lines and
 * functions per file), KDIR/unentered.txt (the functions of the .c files
 * never entered, by the group of fixtures/kernel/kcov-groups.tsv whose
 * pattern matches first) and KDIR/summary.json.
 */
#include "report.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

struct kfile {
	char name[128];		/* relative to kernel/events/ */
	long lf, lh, fnf, fnh;	/* suite */
	long blh, bfnh;		/* baseline */
};

struct unentered {
	char file[128], fn[128];
	int rule;		/* index into the rules, or -1 */
};

struct rule {
	regex_t re;
	char *group, *reach, *why;
};

struct kcov {
	struct kfile *f;
	int nf;
	struct unentered *u;
	int nu;
	struct rule *r;
	int nr;
};

static const char *events_rel(const char *sf)
{
	const char *p = strstr(sf, "/kernel/events/");

	return p ? p + 15 : sf;
}

static struct kfile *kfile(struct kcov *k, const char *name)
{
	for (int i = 0; i < k->nf; i++)
		if (!strcmp(k->f[i].name, name))
			return &k->f[i];
	k->f = realloc(k->f, (size_t)(k->nf + 1) * sizeof(*k->f));
	memset(&k->f[k->nf], 0, sizeof(*k->f));
	snprintf(k->f[k->nf].name, sizeof(k->f[k->nf].name), "%s", name);
	return &k->f[k->nf++];
}

/* a tracefile's LF/LH/FNF/FNH per file, and (suite) its functions never
 * entered; the baseline's counts go only where the suite has the file */
static int read_info(struct kcov *k, const char *path, bool baseline)
{
	FILE *in = fopen(path, "re");
	char *line = NULL, cur[128] = "";
	size_t cap = 0;
	ssize_t len;

	if (!in) {
		fprintf(stderr, "perfabi-report: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &cap, in)) >= 0) {
		struct kfile *f;
		long v;

		line[strcspn(line, "\r\n")] = 0;
		if (!strncmp(line, "SF:", 3)) {
			snprintf(cur, sizeof(cur), "%s", events_rel(line + 3));
			continue;
		}
		if (!strncmp(line, "FNDA:", 5) && !baseline) {
			char *comma = strchr(line + 5, ',');
			size_t l = strlen(cur);
			bool seen = false;

			if (!comma || strtol(line + 5, NULL, 10) || l < 2 || strcmp(cur + l - 2, ".c"))
				continue;
			for (int i = 0; i < k->nu && !seen; i++)
				seen = !strcmp(k->u[i].file, cur) && !strcmp(k->u[i].fn, comma + 1);
			if (seen)
				continue;
			k->u = realloc(k->u, (size_t)(k->nu + 1) * sizeof(*k->u));
			snprintf(k->u[k->nu].file, sizeof(k->u[k->nu].file), "%s", cur);
			snprintf(k->u[k->nu].fn, sizeof(k->u[k->nu].fn), "%s", comma + 1);
			k->u[k->nu++].rule = -1;
			continue;
		}
		if (!cur[0] || !strchr("LF", line[0]))
			continue;
		f = baseline ? NULL : kfile(k, cur);
		for (int i = 0; baseline && i < k->nf; i++)
			if (!strcmp(k->f[i].name, cur))
				f = &k->f[i];
		if (!f)
			continue;
		if (sscanf(line, "LF:%ld", &v) == 1 && !baseline)
			f->lf += v;
		else if (sscanf(line, "LH:%ld", &v) == 1)
			*(baseline ? &f->blh : &f->lh) += v;
		else if (sscanf(line, "FNF:%ld", &v) == 1 && !baseline)
			f->fnf += v;
		else if (sscanf(line, "FNH:%ld", &v) == 1)
			*(baseline ? &f->bfnh : &f->fnh) += v;
	}
	free(line);
	fclose(in);
	return 0;
}

/* the rules: pattern (an extended regular expression, the whole name),
 * group, reachable without a hardware PMU (yes/no), why; tab separated */
static int read_rules(struct kcov *k, const char *path)
{
	FILE *in = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;

	if (!in) {
		fprintf(stderr, "perfabi-report: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, in) >= 0) {
		char *f[4] = { line, NULL, NULL, NULL }, pat[4096];
		struct rule *r;

		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '#' || !line[strspn(line, " \t")])
			continue;
		for (int i = 1; i < 4; i++) {
			f[i] = f[i - 1] ? strchr(f[i - 1], '\t') : NULL;
			if (f[i])
				*f[i]++ = 0;
		}
		k->r = realloc(k->r, (size_t)(k->nr + 1) * sizeof(*k->r));
		r = &k->r[k->nr];
		snprintf(pat, sizeof(pat), "^(%s)$", f[0]);
		if (regcomp(&r->re, pat, REG_EXTENDED | REG_NOSUB)) {
			fprintf(stderr, "perfabi-report: %s: a pattern that is no regular expression: %s\n", path, f[0]);
			continue;
		}
		r->group = strdup(f[1] ? f[1] : "");
		r->reach = strdup(f[2] ? f[2] : "");
		r->why = strdup(f[3] ? f[3] : "");
		k->nr++;
	}
	free(line);
	fclose(in);
	return 0;
}

static const char *u_group(const struct kcov *k, const struct unentered *u)
{
	return u->rule < 0 ? "unclassified" : k->r[u->rule].group;
}

static const char *u_reach(const struct kcov *k, const struct unentered *u)
{
	return u->rule < 0 ? "?" : k->r[u->rule].reach;
}

static const char *u_why(const struct kcov *k, const struct unentered *u)
{
	return u->rule < 0 ? "not classified yet (add a rule to fixtures/kernel/kcov-groups.tsv)"
			   : k->r[u->rule].why;
}

static const struct kcov *sort_k;

/* reachable first, then unclassified, then the rest; by group; by file
 * and function */
static int u_rank(const struct unentered *u)
{
	const char *r = u_reach(sort_k, u);

	return !strcmp(r, "yes") ? 0 : !strcmp(r, "?") ? 1 : 2;
}

static int u_cmp(const void *a, const void *b)
{
	const struct unentered *x = a, *y = b;
	int c = u_rank(x) - u_rank(y);

	if (!c)
		c = strcmp(u_group(sort_k, x), u_group(sort_k, y));
	if (!c)
		c = strcmp(x->file, y->file);
	return c ? c : strcmp(x->fn, y->fn);
}

static int u_name_cmp(const void *a, const void *b)
{
	const struct unentered *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : strcmp(x->fn, y->fn);
}

static int f_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kfile *)a)->name, ((const struct kfile *)b)->name);
}

static void pct(char *out, size_t len, long hit, long total)
{
	if (total > 0)
		snprintf(out, len, "%.1f", 100.0 * (double)hit / (double)total);
	else
		snprintf(out, len, "-");
}

static void table_row(FILE *f, const char *name, const struct kfile *t)
{
	char a[16], b[16], c[16], d[16];

	pct(a, sizeof(a), t->lh, t->lf);
	pct(b, sizeof(b), t->blh, t->lf);
	pct(c, sizeof(c), t->fnh, t->fnf);
	pct(d, sizeof(d), t->bfnh, t->fnf);
	fprintf(f, "%-18s %6s%% %5ld/%-5ld (%5s%%)  %6s%% %4ld/%-4ld (%5s%%)\n", name, a, t->lh, t->lf, b,
		c, t->fnh, t->fnf, d);
}

static void write_table(FILE *f, const struct kcov *k, const char *label, const char *release,
			struct kfile *tot)
{
	int n[3] = { 0 };

	fprintf(f, "kernel/events/ coverage: %s (%s)\n", label, release);
	fprintf(f, "%-18s %24s  %24s   %s\n", "", "lines: suite (boot only)", "functions: suite (boot)", "");
	for (int i = 0; i < k->nf; i++) {
		table_row(f, k->f[i].name, &k->f[i]);
		tot->lf += k->f[i].lf;
		tot->lh += k->f[i].lh;
		tot->fnf += k->f[i].fnf;
		tot->fnh += k->f[i].fnh;
		tot->blh += k->f[i].blh;
		tot->bfnh += k->f[i].bfnh;
	}
	table_row(f, "total", tot);
	for (int i = 0; i < k->nu; i++)
		n[u_rank(&k->u[i])]++;
	fprintf(f, "\nfunctions of kernel/events/*.c never entered: %d (%d reachable without a hardware PMU, %d not, %d unclassified)\n",
		k->nu, n[0], n[2], n[1]);
}

static void write_unentered(FILE *f, const struct kcov *k)
{
	for (int i = 0; i < k->nu;) {
		const struct unentered *u = &k->u[i];
		const char *r = u_reach(k, u);
		int j = i;

		while (j < k->nu && !strcmp(u_group(k, &k->u[j]), u_group(k, u)) &&
		       u_rank(&k->u[j]) == u_rank(u))
			j++;
		fprintf(f, "%s: %d, %s: %s\n", u_group(k, u), j - i,
			!strcmp(r, "yes") ? "reachable without a hardware PMU" :
			!strcmp(r, "no") ? "needs hardware or is out of the suite's reach" : "not classified",
			u_why(k, u));
		for (; i < j; i++)
			fprintf(f, "  %s (%s)\n", k->u[i].fn, k->u[i].file);
	}
}

static void write_json(FILE *f, const struct kcov *k, const char *label, const char *release,
		       const struct kfile *t)
{
	char path[256];

	fputs("{\n  \"perfabi_kcov\": 1,\n  \"kernel\": ", f);
	pa_json_str(f, label);
	fputs(",\n  \"release\": ", f);
	pa_json_str(f, release);
	fprintf(f, ",\n  \"total\": {\"lines\": %ld, \"lines_hit\": %ld, \"functions\": %ld, \"functions_hit\": %ld,\n"
		"            \"baseline_lines_hit\": %ld, \"baseline_functions_hit\": %ld},\n  \"files\": [",
		t->lf, t->lh, t->fnf, t->fnh, t->blh, t->bfnh);
	for (int i = 0; i < k->nf; i++) {
		const struct kfile *x = &k->f[i];

		snprintf(path, sizeof(path), "kernel/events/%s", x->name);
		fprintf(f, "%s\n    {\"file\": ", i ? "," : "");
		pa_json_str(f, path);
		fprintf(f, ", \"lines\": %ld, \"lines_hit\": %ld, \"functions\": %ld, \"functions_hit\": %ld, "
			"\"baseline_lines_hit\": %ld, \"baseline_functions_hit\": %ld}",
			x->lf, x->lh, x->fnf, x->fnh, x->blh, x->bfnh);
	}
	fputs("\n  ],\n  \"unentered\": [", f);
	for (int i = 0; i < k->nu; i++) {
		const struct unentered *u = &k->u[i];
		const char *r = u_reach(k, u);

		snprintf(path, sizeof(path), "kernel/events/%s", u->file);
		fprintf(f, "%s\n    {\"file\": ", i ? "," : "");
		pa_json_str(f, path);
		fputs(", \"function\": ", f);
		pa_json_str(f, u->fn);
		fputs(", \"group\": ", f);
		pa_json_str(f, u_group(k, u));
		fprintf(f, ", \"reachable_without_hw_pmu\": %s, \"reason\": ",
			!strcmp(r, "yes") ? "true" : !strcmp(r, "no") ? "false" : "null");
		pa_json_str(f, u_why(k, u));
		fputc('}', f);
	}
	fputs("\n  ]\n}\n", f);
}

static FILE *out_file(const char *dir, const char *name)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		fprintf(stderr, "perfabi-report: cannot write %s: %s\n", path, strerror(errno));
	return f;
}

int rp_kcov_summary(int argc, char **argv)
{
	const char *label = NULL, *release = "", *groups = NULL, *dir;
	struct kcov k = { 0 };
	struct kfile tot = { 0 };
	char path[4200];
	FILE *f[3];
	int i, rc = 0;

	for (i = 0; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--label"))
			label = argv[i + 1];
		else if (!strcmp(argv[i], "--release"))
			release = argv[i + 1];
		else if (!strcmp(argv[i], "--groups"))
			groups = argv[i + 1];
		else
			break;
	}
	if (i + 1 != argc || !label || !groups) {
		fprintf(stderr, "perfabi-report: kcov-summary needs --label, --groups and KDIR\n");
		return 2;
	}
	dir = argv[i];
	snprintf(path, sizeof(path), "%s/suite.info", dir);
	if (read_info(&k, path, false))
		return 2;
	snprintf(path, sizeof(path), "%s/baseline.info", dir);
	if (read_info(&k, path, true) || read_rules(&k, groups))
		return 2;
	for (i = 0; i < k.nu; i++)
		for (int r = 0; r < k.nr && k.u[i].rule < 0; r++)
			if (!regexec(&k.r[r].re, k.u[i].fn, 0, NULL, 0))
				k.u[i].rule = r;
	qsort(k.f, (size_t)k.nf, sizeof(*k.f), f_cmp);
	qsort(k.u, (size_t)k.nu, sizeof(*k.u), u_name_cmp);
	sort_k = &k;
	f[0] = out_file(dir, "table.txt");
	f[1] = out_file(dir, "unentered.txt");
	f[2] = out_file(dir, "summary.json");
	if (f[0])
		write_table(f[0], &k, label, release, &tot);
	if (f[2])
		write_json(f[2], &k, label, release, &tot);
	qsort(k.u, (size_t)k.nu, sizeof(*k.u), u_cmp);
	if (f[1])
		write_unentered(f[1], &k);
	for (i = 0; i < 3; i++)
		if (!f[i] || fclose(f[i]))
			rc = 2;
	for (i = 0; i < k.nr; i++) {
		regfree(&k.r[i].re);
		free(k.r[i].group);
		free(k.r[i].reach);
		free(k.r[i].why);
	}
	free(k.r);
	free(k.f);
	free(k.u);
	return rc;
}
