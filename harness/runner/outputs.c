// SPDX-License-Identifier: GPL-2.0
/*
 * What a run leaves: its directory under results/ (run.tap and results.tsv
 * are written as results print, by sched.c; summary.json and report.html
 * here at the end), the files --json, --junit and --kcidb ask for, and the
 * text that ends the run on stdout (totals, skip reasons, failures).
 */
#include "run.h"
#include "exec.h"
#include "report/report.h"

#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

/* The commonest skip reasons, digits folded ("uid 65534" -> "uid N"), so
 * that a reader sees at once why results were skipped. */
struct skip_reason {
	char why[160];
	int count;
};

static int by_count_desc(const void *a, const void *b)
{
	return ((const struct skip_reason *)b)->count - ((const struct skip_reason *)a)->count;
}

static void print_skip_reasons(FILE *f, const struct pa_result *r, int n)
{
	enum { MAX = 64, TOP = 8 };
	struct skip_reason t[MAX];
	int nt = 0, skips = 0;

	for (int i = 0; i < n; i++) {
		char why[160];
		int j, k = 0;

		if (r[i].outcome != PA_SKIP)
			continue;
		skips++;
		for (const char *s = r[i].detail; *s && k < (int)sizeof(why) - 1; s++) {
			if (*s >= '0' && *s <= '9') {
				while (s[1] >= '0' && s[1] <= '9')
					s++;
				why[k++] = 'N';
			} else {
				why[k++] = *s;
			}
		}
		why[k] = 0;
		for (j = 0; j < nt && strcmp(t[j].why, why); j++)
			;
		if (j == nt) {
			if (nt == MAX)
				continue;	/* counted in skips, not listed */
			snprintf(t[nt].why, sizeof(t[nt].why), "%s", why);
			t[nt++].count = 0;
		}
		t[j].count++;
	}
	if (!skips)
		return;
	qsort(t, (size_t)nt, sizeof(t[0]), by_count_desc);
	fprintf(f, "# skipped %d: the commonest reasons\n", skips);
	for (int i = 0; i < TOP && i < nt; i++)
		fprintf(f, "#   %5d  %s\n", t[i].count, t[i].why);
	if (nt > TOP)
		fprintf(f, "#          and %d other reasons (run.tap has each)\n", nt - TOP);
}

/* The run ends with its failures listed (name and reason), so a person
 * sees where it failed without searching the stream; then the known bugs
 * that did not show (XPASS: a kernel fixed early, good news). */
static void print_outcome_list(FILE *f, const struct pa_result *r, int n, enum pa_outcome o,
			       const char *title)
{
	enum { TOP = 50 };
	int nf = 0, shown = 0;

	for (int i = 0; i < n; i++)
		nf += r[i].outcome == o;
	if (!nf)
		return;
	fprintf(f, "# %s %d:\n", title, nf);
	for (int i = 0; i < n && shown < TOP; i++) {
		if (r[i].outcome != o)
			continue;
		fprintf(f, "#   %s: %.200s\n", r[i].name, r[i].detail[0] ? r[i].detail : "(no reason given)");
		shown++;
	}
	if (nf > shown)
		fprintf(f, "#   and %d more (results.tsv has each)\n", nf - shown);
}

static void print_failures(FILE *f, const struct pa_result *r, int n)
{
	print_outcome_list(f, r, n, PA_FAIL, "failed");
	print_outcome_list(f, r, n, PA_XPASS, "passed although a known bug was expected (XPASS)");
}

/* results/<id>: never reuse a directory. */
int pa_make_run_dir(const struct pa_opts *o, const char *release, char *dir, size_t len)
{
	char id[200];
	time_t t = time(NULL);
	struct tm tm;

	if (mkdir(o->results_dir, 0755) && errno != EEXIST)
		return -1;
	if (o->run_id) {
		snprintf(dir, len, "%s/%s", o->results_dir, o->run_id);
		return mkdir(dir, 0755);
	}
	localtime_r(&t, &tm);
	strftime(id, sizeof(id), "%Y%m%d-%H%M%S", &tm);
	for (int i = 1; i < 1000; i++) {
		if (i == 1)
			snprintf(dir, len, "%s/%s-%s", o->results_dir, id, release);
		else
			snprintf(dir, len, "%s/%s-%s-%d", o->results_dir, id, release, i);
		if (!mkdir(dir, 0755))
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	return -1;
}

FILE *pa_open_in(const char *dir, const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "we");
}

/* When the run started, RFC 3339 in UTC (summary.json, KCIDB). */
static char run_started[32];

void pa_mark_start(void)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(run_started, sizeof(run_started), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
}

static const char *run_machine(void)
{
	static struct utsname u;

	if (!u.machine[0] && uname(&u))
		return "";
	return u.machine;
}

static void write_summary(FILE *f, const struct pa_context *ctx, const char *run_id,
			  const struct pa_result *r, int nr, const struct pa_counts *c,
			  long total_ms, const struct pa_plan *plan,
			  const struct pa_abimap_stats *abi, int sig, const char *during)
{
	fprintf(f, "{\n  \"perfabi\": 1,\n  \"run_id\": ");
	pa_json_str(f, run_id);
	fprintf(f, ",\n  \"kernel\": ");
	pa_json_str(f, ctx->release);
	fprintf(f, ",\n  \"kernel_version\": \"%d.%d.%d\",\n", ctx->kernel.major,
		ctx->kernel.minor, ctx->kernel.patch);
	fprintf(f, "  \"machine\": ");
	pa_json_str(f, run_machine());
	fprintf(f, ",\n  \"start_time\": \"%s\",\n", run_started);
	fprintf(f, "  \"paranoid\": %d,\n  \"uid\": %u,\n  \"caps_effective\": \"0x%llx\",\n",
		ctx->paranoid, (unsigned)ctx->uid, (unsigned long long)ctx->caps);
	fprintf(f, "  \"cpus\": %d,\n  \"tracefs\": ", ctx->ncpus);
	if (ctx->tracefs)
		pa_json_str(f, ctx->tracefs);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"pmus\": [");
	for (int i = 0; i < ctx->npmus; i++) {
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		pa_json_str(f, ctx->pmus[i].name);
		fprintf(f, ", \"type\": %d}", ctx->pmus[i].type);
	}
	fprintf(f, "],\n  \"matrix\": ");
	pa_plan_json(f, plan);
	if (abi)
		fprintf(f, ",\n  \"abi_map\": {\"elements\": %d, \"covered\": %d, \"untestable\": %d, \"missing\": %d}",
			abi->total, abi->covered, abi->untestable, abi->missing);
	fprintf(f, ",\n  \"counts\": {\"pass\": %d, \"fail\": %d, \"skip\": %d, \"xfail\": %d, \"xpass\": %d},\n",
		c->n[PA_PASS], c->n[PA_FAIL], c->n[PA_SKIP], c->n[PA_XFAIL], c->n[PA_XPASS]);
	if (sig) {
		/* not a complete run: what it did not reach is not a result */
		fprintf(f, "  \"interrupted\": {\"signal\": %d, \"completed\": %d, \"planned\": %d, \"during\": ",
			sig, nr, plan->nplanned);
		if (during)
			pa_json_str(f, during);
		else
			fputs("null", f);
		fprintf(f, "},\n");
	}
	fprintf(f, "  \"duration_ms\": %ld,\n  \"cases\": [\n", total_ms);
	for (int i = 0; i < nr; i++) {
		fprintf(f, "    {\"name\": ");
		pa_json_str(f, r[i].name);
		fprintf(f, ", \"outcome\": \"%s\", \"duration_ms\": %ld, \"detail\": ",
			pa_outcome_name(r[i].outcome), r[i].duration_ms);
		pa_json_str(f, r[i].detail);
		fprintf(f, "}%s\n", i + 1 < nr ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}

/* The results as perfabi-report's run (one column per cell): the very
 * records the runner printed, which its writers read as they are. */
static void to_rp_run(struct rp_run *run, const struct pa_result *res, int n)
{
	run->r = (struct pa_result *)res;
	run->n = n;
}

/* --junit FILE: the results as JUnit XML, by perfabi-report's writer. */
static int write_junit(const char *path, const char *label, const struct pa_result *res, int n)
{
	struct rp_run run = { .label = (char *)label };
	FILE *f = fopen(path, "w");
	int rc = 0;

	if (!f)
		return -1;
	to_rp_run(&run, res, n);
	rp_junit(f, &run);
	if (fclose(f))
		rc = -1;
	return rc;
}

/* --kcidb FILE: the run in KCIDB I/O JSON, by perfabi-report's writer. */
static int write_kcidb(const char *path, const char *origin, const struct pa_context *ctx,
		       const char *run_dir, const struct pa_result *res, int n)
{
	const char *id = strrchr(run_dir, '/');
	char host[256] = "", rid[600], comment[400];
	struct rp_run run = { .label = (char *)ctx->release };
	struct rp_runs runs = { .v = &run, .n = 1, .cap = 1 };
	struct rp_kcidb_meta m = { 0 };
	FILE *f = fopen(path, "w");
	int rc = 0;

	if (!f)
		return -1;
	gethostname(host, sizeof(host) - 1);
	/* the run directory's name is unique on this host; without one,
	 * the start time and the pid */
	if (run_dir[0])
		snprintf(rid, sizeof(rid), "%s/%s", host, id ? id + 1 : run_dir);
	else
		snprintf(rid, sizeof(rid), "%s/%s-%d", host, run_started, (int)getpid());
	snprintf(comment, sizeof(comment), "perfabi on %s (%s), paranoid %d, uid %u", ctx->release,
		 run_machine(), ctx->paranoid, (unsigned)ctx->uid);
	m.id = rid;
	m.release = ctx->release;
	m.arch = run_machine();
	m.start_time = run_started;
	m.comment = comment;
	to_rp_run(&run, res, n);
	rp_kcidb(f, origin, &runs, &m);
	if (fclose(f))
		rc = -1;
	return rc;
}

/* Every run's HTML report, report.html in its run directory: perfabi-report
 * matrix's page (case x cell, failures first), as --vm writes matrix.html. */
static int write_html(FILE *f, const char *dir, const char *label, const struct pa_result *res, int n)
{
	struct rp_run run = { .label = (char *)label, .dir = (char *)dir };
	struct rp_runs runs = { .v = &run, .n = 1, .cap = 1 };
	struct rp_matrix m = { 0 };
	int rc = 0;

	to_rp_run(&run, res, n);
	if (rp_matrix_build(&m, &runs))
		rc = -1;
	else
		rp_matrix_html(f, &m, &runs);
	rp_matrix_free(&m);
	if (fclose(f))
		rc = -1;
	return rc;
}

/* summary.json: in the run directory, and where --json says; 0 or 2 */
static int write_summaries(struct pa_run *r)
{
	const char *id = strrchr(r->run_dir, '/');
	const char *run_id = id ? id + 1 : r->run_dir;
	long total_ms = pa_now_ms() - r->t0;
	int rc = 0;

	for (int k = 0; k < 2; k++) {
		FILE *js = k ? (r->o.json ? fopen(r->o.json, "w") : NULL) :
			       (r->run_dir[0] ? pa_open_in(r->run_dir, "summary.json") : NULL);

		if (!js) {
			if (k && r->o.json) {
				fprintf(stderr, "perfabi-run: cannot write %s: %s\n", r->o.json, strerror(errno));
				rc = 2;
			}
			continue;
		}
		write_summary(js, &r->ctx, run_id, r->res, r->done, &r->counts, total_ms, &r->plan,
			      r->have_abi ? &r->abi : NULL, r->stop_sig, r->interrupted);
		if (fclose(js) && k) {
			fprintf(stderr, "perfabi-run: cannot write %s: %s\n", r->o.json, strerror(errno));
			rc = 2;
		}
	}
	return rc;
}

int pa_write_outputs(struct pa_run *r)
{
	const char *origin = r->o.origin ? r->o.origin : "perfabi";
	int rc = write_summaries(r);

	if (r->o.kcidb && write_kcidb(r->o.kcidb, origin, &r->ctx, r->run_dir, r->res, r->done)) {
		fprintf(stderr, "perfabi-run: cannot write %s: %s\n", r->o.kcidb, strerror(errno));
		rc = 2;
	}
	if (r->o.junit && write_junit(r->o.junit, r->ctx.release, r->res, r->done)) {
		fprintf(stderr, "perfabi-run: cannot write %s: %s\n", r->o.junit, strerror(errno));
		rc = 2;
	}
	if (r->run_dir[0]) {
		FILE *hf = pa_open_in(r->run_dir, "report.html");

		if (!hf || write_html(hf, r->run_dir, r->ctx.release, r->res, r->done)) {
			fprintf(stderr, "perfabi-run: cannot write %s/report.html: %s\n", r->run_dir,
				strerror(errno));
			rc = 2;
		}
		printf("# results: %s (report.html: the results as a page)\n", r->run_dir);
	}
	return rc;
}

void pa_print_run_end(const struct pa_run *r)
{
	if (r->have_abi)
		printf("# ABI map: the cases run cover %d of %d elements (%d more untestable with a reason, %d %s)\n",
		       r->abi.covered, r->abi.total, r->abi.untestable, r->abi.missing,
		       r->nsel < r->nall ? "not covered by the selected cases" : "without a case");
	pa_matrix_totals(stdout, &r->plan, r->res, r->done);
	print_skip_reasons(stdout, r->res, r->done);
	print_failures(stdout, r->res, r->done);
	pa_print_totals(stdout, &r->counts);
}
