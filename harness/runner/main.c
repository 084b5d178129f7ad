// SPDX-License-Identifier: GPL-2.0
/*
 * perfabi-run: discover the built cases, plan the runs (the privilege x
 * paranoid matrix, see matrix.c), run each case binary under a deadline,
 * and print one KTAP stream; write results/<run-id>/ for later comparison.
 */
#include "runner.h"
#include "exec.h"
#include "matrix.h"
#include "abimap.h"
#include "report.h"

#include <limits.h>
#include <poll.h>
#include <dirent.h>
#include <libgen.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>

static volatile sig_atomic_t stop_sig;

static void on_stop(int sig)
{
	stop_sig = sig;
}

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

static const char *default_cases_dir(char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return "build/cases";
	self[n] = 0;
	slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(buf, len, "%s/cases", self);
	return buf;
}

/* results/<id>: never reuse a directory. */
static int make_run_dir(const struct pa_opts *o, const char *release,
			char *dir, size_t len)
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

static FILE *open_in(const char *dir, const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "we");
}

/* When the run started, RFC 3339 in UTC (summary.json, KCIDB). */
static char run_started[32];

static void mark_start(void)
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
			sig, nr, plan->njobs);
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

/* /proc/sys/kernel/tainted, or 0 when unreadable. */
static unsigned long read_taint(void)
{
	long t = pa_sysctl_long("kernel/tainted");

	return t < 0 ? 0 : (unsigned long)t;
}

/* The letters of the taint bits (Documentation/admin-guide/tainted-kernels). */
static void taint_letters(unsigned long bits, char *buf, size_t len)
{
	static const char letters[] = "PFSRMBUDAWCIOELKXTN";
	size_t n = 0;

	for (int i = 0; letters[i] && n + 1 < len; i++)
		if (bits & (1UL << i))
			buf[n++] = letters[i];
	buf[n] = 0;
}

/* TAINT_TEST (N, bit 18): kselftest-style test modules, not trouble */
#define TAINT_IGNORED (1UL << 18)

/*
 * New taint bits while a case ran (a WARN, an oops, a bad page...): the
 * kernel misbehaved under the case, so the result is a failure whatever
 * the case itself concluded.
 */
static void taint_after_case(struct pa_result *r, unsigned long before,
			     unsigned long after, FILE *out, FILE *tap)
{
	char was[32], now[32];

	if (!(after & ~before & ~TAINT_IGNORED))
		return;
	taint_letters(before, was, sizeof(was));
	taint_letters(after, now, sizeof(now));
	fprintf(out, "# the kernel became tainted while %s ran: %#lx (%s) -> %#lx (%s); see dmesg\n",
		r->name, before, was, after, now);
	if (tap)
		fprintf(tap, "# kernel taint %#lx -> %#lx while %s ran\n", before, after, r->name);
	if (r->outcome != PA_FAIL) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "kernel tainted %#lx -> %#lx (%s) while it ran",
			 before, after, now);
	}
}

static int kmsg_fd = -1;

/* A kernel-log line of trouble (WARN, BUG, oops...) while a case ran fails
 * it, as a new taint bit does. */
static void kmsg_after_case(struct pa_result *r, FILE *out, FILE *tap)
{
	char line[256];

	if (!pa_kmsg_trouble(kmsg_fd, line, sizeof(line)))
		return;
	pa_ktap_sanitize(line);
	fprintf(out, "# the kernel logged while %s ran: %s\n", r->name, line);
	if (tap)
		fprintf(tap, "# kernel log while %s ran: %s\n", r->name, line);
	if (r->outcome != PA_FAIL) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "the kernel logged while it ran: %.200s", line);
	}
}

/* Turn a finished case binary into one result, echoing its diagnostics. */
static void collect(const struct pa_job *job, const struct pa_exec *e,
		    struct pa_result *r, FILE *out, FILE *tap, bool verbose)
{
	int code = WIFEXITED(e->status) ? WEXITSTATUS(e->status) : -1;
	int rn;
	char rname[256], detail[512] = "", pending[512] = "";
	enum pa_outcome parsed = PA_FAIL;
	bool have = false;

	snprintf(r->name, sizeof(r->name), "%s", job->name);
	r->duration_ms = e->duration_ms;
	if (e->output)
		pa_text_sanitize(e->output, true);
	for (char *line = e->output, *nl; line && *line; line = nl) {
		const char *dl;

		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		if ((dl = pa_ktap_detail_line(line))) {
			snprintf(pending, sizeof(pending), "%s", dl);
		} else if (pa_ktap_parse_result(line, &rn, rname, sizeof(rname), &parsed,
						detail, sizeof(detail))) {
			have = true;
			if (!detail[0])
				snprintf(detail, sizeof(detail), "%s", pending);
			pending[0] = 0;
		}
	}
	if (e->timed_out) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "runner: killed after %ld ms (case supervisor hung)",
			 e->duration_ms);
	} else if (code < 0) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "runner: case binary killed by signal %d",
			 WTERMSIG(e->status));
	} else if (code > 4) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail), "runner: case binary exited %d", code);
	} else if (!have || parsed != (enum pa_outcome)code) {
		r->outcome = PA_FAIL;
		snprintf(r->detail, sizeof(r->detail),
			 "runner: exit status %d does not match the KTAP result", code);
	} else {
		r->outcome = parsed;
		snprintf(r->detail, sizeof(r->detail), "%s", detail);
	}
	/* diagnostics: all to the TAP file, to stdout for failures or -v */
	for (const char *line = e->output; line < e->output + e->len; line += strlen(line) + 1) {
		bool show = verbose || r->outcome == PA_FAIL || r->outcome == PA_XFAIL ||
			    r->outcome == PA_XPASS;

		if (!*line || !strncmp(line, "KTAP version", 12) || !strncmp(line, "TAP version", 11) || !strncmp(line, "1..", 3) ||
		    !strncmp(line, "ok ", 3) || !strncmp(line, "not ok ", 7) || pa_ktap_detail_line(line))
			continue;
		if (tap)
			fprintf(tap, "%s%s\n", line[0] == '#' ? "" : "# ", line);
		if (show)
			fprintf(out, "%s%s\n", line[0] == '#' ? "" : "# ", line);
	}
}

/* --abi-check: every map element has a case or a reason; cases name only
 * map elements. */
/* Did case pass (or xfail) in any cell of a results.tsv under refdir/ ? */
static bool case_ran(const char *refdir, const char *name)
{
	char path[PATH_MAX], line[4096];
	size_t nl = strlen(name);
	bool ran = false;
	DIR *d = opendir(refdir);
	struct dirent *e;

	while (d && !ran && (e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/results.tsv", refdir, e->d_name);
		f = fopen(path, "r");
		while (f && !ran && fgets(line, sizeof(line), f)) {
			char *tab = strchr(line, '\t');

			if (tab && !strncmp(line, name, nl) && line[nl] == '@' &&
			    (!strncmp(tab + 1, "pass\t", 5) || !strncmp(tab + 1, "xfail\t", 6)))
				ran = true;
		}
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return ran;
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
	bool *ran;
	int never = 0;

	snprintf(dir, sizeof(dir), "%s", mappath);
	snprintf(refdir, sizeof(refdir), "%s/../results/reference", dirname(dir));
	if (access(refdir, R_OK))
		return -1;
	ran = calloc((size_t)n + 1, sizeof(*ran));
	if (!ran)
		return -1;
	for (int i = 0; i < n; i++)
		ran[i] = case_ran(refdir, cases[i].name);
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

static int abi_check(const struct pa_opts *o, struct pa_case_info *cases, int n)
{
	struct pa_abimap m;
	struct pa_abimap_stats st;
	char err[512];
	int unknown = 0, never;

	if (pa_abimap_load(o->abi_check, &m, err, sizeof(err))) {
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
	never = never_run_elements(o->abi_check, &m, cases, n);
	for (int i = 0; i < m.n; i++)
		if (m.e[i].hardware[0])
			printf("%s: hardware only: %s\n", m.e[i].name, m.e[i].hardware);
	printf("# ABI map %s: %d elements, %d covered by %d cases (%d of them only by cases that never passed on a reference kernel, %d more only by cases that need hardware the references lack), %d untestable with a reason, %d missing\n",
	       o->abi_check, st.total, st.covered, n, never < 0 ? 0 : never, st.hardware, st.untestable, st.missing);
	pa_abimap_free(&m);
	return st.missing || unknown ? 1 : 0;
}

/* The run summary's view of the map: what the cases that ran cover. */
static bool abi_coverage(const char *path, const struct pa_case_info *cases, int n,
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

/* One job running: its process. Free again (j -1) once it ended. */
struct slot {
	int j;				/* the job, -1: free */
	struct pa_exec e;
};

/* What a finished job prints before its result line (stdout, run.tap). */
struct diag {
	char *out, *tap;
	size_t outlen, taplen;
};

/* Start one job's case binary under its deadline. */
static int start_job(struct slot *s, const struct pa_job *job, int j, double scale,
		     bool parallel)
{
	char lv[16], sc[32];

	/* the level this cell runs at, for cases that check the sysctl
	 * reflects what was written */
	snprintf(lv, sizeof(lv), "%d", job->level);
	setenv("PERFABI_PARANOID_SET", lv, 1);
	snprintf(sc, sizeof(sc), "%g", scale);
	setenv("PERFABI_TIMEOUT_SCALE", sc, 1);
	setenv("PERFABI_PARALLEL", parallel ? "1" : "0", 1);
	memset(&s->e, 0, sizeof(s->e));
	s->e.path = job->ci->path;
	/* the case enforces its own timeout; this one catches a hung supervisor */
	s->e.timeout_ms = (long)(job->ci->timeout * scale * 1000) + 15000;
	s->e.setup = pa_job_setup;
	s->e.setup_arg = (void *)job;
	s->j = j;
	return pa_exec_start(&s->e);
}

/* A finished job: its result, the kernel's taint and log around it. */
static void finish_job(struct slot *s, const struct pa_job *job, struct pa_result *r,
		       struct diag *d, bool verbose, bool tap, unsigned long *taint_before,
		       int others)
{
	unsigned long taint;
	FILE *outf, *tapf;

	pa_exec_finish(&s->e);
	outf = open_memstream(&d->out, &d->outlen);
	tapf = tap ? open_memstream(&d->tap, &d->taplen) : NULL;
	taint = read_taint();
	collect(job, &s->e, r, outf, tapf, verbose);
	if (others && (taint & ~*taint_before & ~TAINT_IGNORED))
		fprintf(outf, "# (%d other case(s) ran beside it)\n", others);
	taint_after_case(r, *taint_before, taint, outf, tapf);
	*taint_before = taint;
	kmsg_after_case(r, outf, tapf);
	fclose(outf);
	if (tapf)
		fclose(tapf);
	free(s->e.output);
	s->e.output = NULL;
	s->j = -1;
}

/* Where results go as they are printed, in plan order. */
struct sink {
	FILE *tap, *tsv;		/* NULL with --no-results */
	struct pa_counts *counts;
	bool progress;			/* the [n/N] line on stderr */
	int njobs;
};

/* Print result j: the diagnostics its job left, its KTAP line (stdout and
 * run.tap), its count and results.tsv line. */
static void emit_result(const struct sink *k, int j, const struct pa_result *r, struct diag *d)
{
	const char *detail = r->detail[0] ? r->detail : NULL;

	if (d->out)
		fwrite(d->out, 1, d->outlen, stdout);
	if (k->tap && d->tap)
		fwrite(d->tap, 1, d->taplen, k->tap);
	free(d->out);
	free(d->tap);
	d->out = d->tap = NULL;
	pa_ktap_result(stdout, j + 1, r->name, r->outcome, detail);
	if (k->tap)
		pa_ktap_result(k->tap, j + 1, r->name, r->outcome, detail);
	pa_count(k->counts, r->outcome);
	if (k->tsv)
		fprintf(k->tsv, "%s\t%s\t%ld\t%s\n", r->name, pa_outcome_name(r->outcome),
			r->duration_ms, r->detail);
	if (k->progress)
		fprintf(stderr, "\r[%d/%d] %.60s\033[K", j + 1, k->njobs, r->name);
}

/* The results as perfabi-report's run (one column per cell). */
static void to_rp_run(struct rp_run *run, const struct pa_result *res, int n)
{
	run->r = calloc((size_t)n + 1, sizeof(*run->r));
	for (int i = 0; run->r && i < n; i++) {
		char *line = NULL;

		if (asprintf(&line, "%s\t%s\t%ld\t%s", res[i].name, pa_outcome_name(res[i].outcome),
			     res[i].duration_ms, res[i].detail) < 0)
			break;
		if (!rp_parse_line(line, &run->r[run->n]))
			run->n++;
		free(line);
	}
}

static void free_rp_run(struct rp_run *run)
{
	for (int i = 0; i < run->n; i++)
		rp_result_free(&run->r[i]);
	free(run->r);
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
	free_rp_run(&run);
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
	free_rp_run(&run);
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
	free_rp_run(&run);
	if (fclose(f))
		rc = -1;
	return rc;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/*
 * Is another result of this case running? Two processes of one executable
 * share its page cache: the kernel maps the pages around a faulting one
 * only where it gets their folio lock at once (filemap_map_pages(),
 * next_uptodate_folio()), so each process's own faults on the binary's code
 * vary by a page or two when the other faults there too, and exact
 * page-fault counts of a forked child move by one (37 of 12,619 runs with
 * four processes of one case binary on two CPUs, none of 11,929 with four
 * copies of the file).
 */
static bool case_running(const struct slot *slots, int nslots, const char *state,
			 const struct pa_job *jobs, const struct pa_case_info *ci)
{
	for (int k = 0; k < nslots; k++)
		if (slots[k].j >= 0 && state[slots[k].j] == 1 && jobs[slots[k].j].ci == ci)
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct pa_opts o;
	char err[768], cdir_buf[PATH_MAX], run_dir[1024] = "", mount_note[300] = "";
	char stage_note[PATH_MAX + 300] = "";
	const char *cdir;
	struct pa_case_info *all = NULL;
	int nall = 0, nsel = 0;
	struct pa_context ctx;
	struct pa_plan plan;
	struct pa_result *res;
	struct pa_counts counts = { { 0 } };
	FILE *tap = NULL, *tsv = NULL;
	long t0 = now_ms();
	int rc = 0;
	unsigned long taint_before = read_taint();
	struct pa_abimap_stats abi = { 0, 0, 0, 0 };
	bool have_abi = false;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pa_parse_opts(argc, argv, &o, err, sizeof(err))) {
		fprintf(stderr, "perfabi-run: %s\n", err);
		return 2;
	}
	if (o.help) {
		pa_usage(stdout, "perfabi-run");
		return 0;
	}
	if (o.origin && !rp_kcidb_origin_ok(o.origin)) {
		fprintf(stderr, "perfabi-run: bad --origin '%s': lower-case letters, digits and '_' (a KCIDB origin)\n",
			o.origin);
		return 2;
	}
	mark_start();
	/* an output file that cannot be written is bad input: say so before
	 * the run, not after it */
	for (int k = 0; k < 3; k++) {
		const char *path = k == 2 ? o.kcidb : k ? o.json : o.junit;
		FILE *f;

		if (!path)
			continue;
		f = fopen(path, "a");
		if (!f) {
			fprintf(stderr, "perfabi-run: cannot write %s: %s\n", path, strerror(errno));
			return 2;
		}
		fclose(f);
	}
	if (!o.jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		o.jobs = n < 1 ? 1 : n > 64 ? 64 : (int)n;
	}
	/* the cases read it (pa_context_read); no --destructive: not run */
	if (o.destructive)
		setenv("PERFABI_DESTRUCTIVE", "1", 1);
	else
		unsetenv("PERFABI_DESTRUCTIVE");
	cdir = o.cases_dir ? o.cases_dir : default_cases_dir(cdir_buf, sizeof(cdir_buf));
	if (pa_discover(cdir, &all, &nall) || nall == 0) {
		fprintf(stderr, "perfabi-run: no built cases in %s (run make first)\n", cdir);
		return 2;
	}
	/* every pattern must match something: a typo is an error, not a pass */
	for (int p = 0; p < o.npatterns; p++) {
		struct pa_opts one = o;
		bool hit = false;

		one.npatterns = 1;
		one.patterns[0] = o.patterns[p];
		for (int i = 0; i < nall && !hit; i++)
			hit = pa_name_selected(&one, all[i].name);
		if (!hit) {
			fprintf(stderr, "perfabi-run: no case matches '%s' (see --list)\n", o.patterns[p]);
			return 2;
		}
	}
	for (int a = 0; a < o.nareas; a++) {
		bool hit = false;
		size_t l = strlen(o.areas[a]);

		for (int i = 0; i < nall && !hit; i++)
			hit = !strncmp(all[i].name, o.areas[a], l) && all[i].name[l] == '/';
		if (!hit) {
			fprintf(stderr, "perfabi-run: no area '%s' (see --list)\n", o.areas[a]);
			return 2;
		}
	}
	for (int i = 0; i < nall; i++)
		if (pa_name_selected(&o, all[i].name))
			all[nsel++] = all[i];
	/* --info runs nothing of the case's: as many at once as there are
	 * CPUs, whatever -j says */
	{
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

		pa_case_load_infos(all, nsel, ncpu < 1 ? 1 : (int)ncpu);
	}
	if (o.abi_check)
		return abi_check(&o, all, nsel);
	if (o.fixes) {
		int nfix = 0;

		for (int i = 0; i < nsel; i++) {
			if (!all[i].fix[0])
				continue;
			printf("%-40s %s%s\n", all[i].name, all[i].destructive ? "[destructive] " : "",
			       all[i].fix);
			nfix++;
		}
		printf("# %d case(s) check a kernel fix\n", nfix);
		return 0;
	}
	if (o.list) {
		for (int i = 0; i < nsel; i++)
			printf("%-40s %s%s\n", all[i].name, all[i].privileged ? "[privilege] " : "",
			       all[i].timeout < 0 ? "(--info failed)" : all[i].assertion);
		return 0;
	}

	pa_private_mounts(mount_note, sizeof(mount_note));
	/* lock and undo what a killed run left before reading the context:
	 * the plan runs the plain cases at the level the machine really has */
	pa_plan_init(&plan);
	if (pa_matrix_begin(&plan, err, sizeof(err))) {
		fprintf(stderr, "perfabi-run: %s\n", err);
		return 2;
	}
	pa_tracepoint_ids_export();	/* a fixed path: only under the lock */
	pa_context_read(&ctx);
	ctx.restricts_all = ctx.paranoid > 2 && pa_paranoid_restricts_all();
	if (pa_plan_build(&plan, &o, &ctx, all, nsel, err, sizeof(err))) {
		fprintf(stderr, "perfabi-run: %s\n", err);
		pa_matrix_end(&plan);
		return 2;
	}
	if (pa_stage_cases(&plan, cdir, stage_note, sizeof(stage_note), err, sizeof(err)) < 0) {
		fprintf(stderr, "perfabi-run: %s\n", err);
		pa_matrix_end(&plan);
		return 2;
	}
	if (!o.no_results) {
		if (make_run_dir(&o, ctx.release, run_dir, sizeof(run_dir))) {
			fprintf(stderr, "perfabi-run: cannot create a run directory under %s: %s%s\n",
				o.results_dir, strerror(errno),
				errno == EEXIST ? " (run ids are never reused)" :
				errno == EACCES ? " (choose another with --results DIR, or --no-results)" : "");
			pa_matrix_end(&plan);
			return 2;
		}
		tap = open_in(run_dir, "run.tap");
		tsv = open_in(run_dir, "results.tsv");
	}
	{
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop;	/* no SA_RESTART: poll() wakes up */
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		pa_exec_stop = &stop_sig;
	}

	res = calloc((size_t)plan.njobs, sizeof(*res));
	pa_ktap_header(stdout, plan.njobs);
	printf("# perfabi on %s (%d.%d.%d), paranoid %d, uid %u, %d cases, %d runs\n",
	       ctx.release, ctx.kernel.major, ctx.kernel.minor, ctx.kernel.patch,
	       ctx.paranoid, (unsigned)ctx.uid, nsel, plan.njobs);
	if (mount_note[0])
		printf("%s\n", mount_note);
	if (stage_note[0])
		printf("%s\n", stage_note);
	if (plan.notes[0])
		printf("%s\n", plan.notes);
	kmsg_fd = pa_kmsg_open(err, sizeof(err));
	if (kmsg_fd < 0)
		printf("# %s\n", err);
	if (tap) {
		pa_ktap_header(tap, plan.njobs);
		fprintf(tap, "# perfabi on %s (%d.%d.%d), paranoid %d, uid %u, %d cases, %d runs\n",
			ctx.release, ctx.kernel.major, ctx.kernel.minor, ctx.kernel.patch,
			ctx.paranoid, (unsigned)ctx.uid, nsel, plan.njobs);
		if (plan.notes[0])
			fprintf(tap, "%s\n", plan.notes);
		if (stage_note[0])
			fprintf(tap, "%s\n", stage_note);
	}
	int done = 0;
	const char *interrupted = NULL;
	int nslots = o.jobs;
	struct slot *slots = calloc((size_t)nslots, sizeof(*slots));
	/* 0 not started, 1 running (slot), 2 result ready, 3 printed,
	 * 4 interrupted while it ran (no result) */
	char *state = calloc((size_t)plan.njobs + 1, 1);
	struct diag *diag = calloc((size_t)plan.njobs + 1, sizeof(*diag));
	int next = 0, printed = 0, running = 0, run_level = 0;
	/* one at a time: plan order, so a guest that dies loses no result
	 * already run; else a paranoid level's jobs together */
	int *order = calloc((size_t)plan.njobs + 1, sizeof(*order));
	bool run_alone = false;
	/* where the KTAP goes to a file or a pipe but a person watches the
	 * terminal: a progress line there, rewritten in place */
	struct sink sink = {
		.tap = tap, .tsv = tsv, .counts = &counts, .njobs = plan.njobs,
		.progress = !isatty(STDOUT_FILENO) && isatty(STDERR_FILENO),
	};

	for (int k = 0; k < nslots; k++)
		slots[k].j = -1;
	pa_plan_order(&plan, nslots > 1, order);
	/*
	 * Jobs start in `order`, up to -j at once, as long as they share
	 * the paranoid level (a global sysctl) of those running; a case
	 * declared .alone starts only when nothing runs and keeps the machine
	 * to itself. Results print in plan order whatever order they end in.
	 */
	while (printed < plan.njobs) {
		while (!stop_sig && next < plan.njobs && running < nslots) {
			int x = order[next];
			struct pa_job *job = &plan.jobs[x];
			struct pa_result *r = &res[x];
			bool alone = job->ci->alone || nslots == 1;
			int k;

			snprintf(r->name, sizeof(r->name), "%s", job->name);
			r->outcome = PA_FAIL;
			if (job->ci->timeout < 0) {
				snprintf(r->detail, sizeof(r->detail), "runner: '%s --info' failed", job->ci->path);
				state[x] = 2;
				next++;
				continue;
			}
			if (job->skip_reason[0]) {
				r->outcome = PA_SKIP;
				snprintf(r->detail, sizeof(r->detail), "%s", job->skip_reason);
				state[x] = 2;
				next++;
				continue;
			}
			if (running && (alone || run_alone || job->level != run_level))
				break;	/* wait for those running to end */
			if (running && case_running(slots, nslots, state, plan.jobs, job->ci))
				break;	/* one result of a case at a time: see case_running() */
			if (pa_job_enter(&plan, job, err, sizeof(err))) {
				snprintf(r->detail, sizeof(r->detail), "runner: %s", err);
				state[x] = 2;
				next++;
				continue;
			}
			for (k = 0; slots[k].j >= 0; k++)
				;
			if (start_job(&slots[k], job, x, o.timeout_scale, !alone)) {
				snprintf(r->detail, sizeof(r->detail), "runner: cannot run %s", job->ci->path);
				slots[k].j = -1;
				state[x] = 2;
				next++;
				continue;
			}
			state[x] = 1;
			next++;
			running++;
			run_level = job->level;
			run_alone = alone;
		}
		/* print what is ready, in plan order */
		while (printed < plan.njobs && state[printed] == 2) {
			emit_result(&sink, printed, &res[printed], &diag[printed]);
			state[printed++] = 3;
		}
		if (printed >= plan.njobs || (!running && (stop_sig || next >= plan.njobs)))
			break;
		if (!running)
			continue;
		/* wait for output or a deadline of those running */
		{
			struct pa_exec *ex[64];
			int who[64], n = 0;

			for (int k = 0; k < nslots && n < 64; k++) {
				if (slots[k].j < 0 || state[slots[k].j] != 1)
					continue;
				ex[n] = &slots[k].e;
				who[n++] = k;
			}
			pa_exec_wait_any(ex, n);
			for (int m = 0; m < n; m++) {
				struct slot *sl = &slots[who[m]];

				int j = sl->j;

				if (!pa_exec_pump(&sl->e))
					continue;
				if (stop_sig && sl->e.stopping) {
					/* stopped while it ran: the case was told to
					 * end, so what it did is no result */
					pa_exec_finish(&sl->e);
					free(sl->e.output);
					sl->e.output = NULL;
					state[j] = 4;
					sl->j = -1;
					running--;
					continue;
				}
				finish_job(sl, &plan.jobs[j], &res[j], &diag[j], o.verbose, tap != NULL,
					   &taint_before, running - 1);
				state[j] = 2;
				running--;
			}
		}
	}
	for (int j = 0; j < plan.njobs && !interrupted; j++)
		if (state[j] == 4)	/* the first, in plan order, whatever -j */
			interrupted = plan.jobs[j].name;
	if (stop_sig) {
		/* the plan stays whole for TAP consumers: the results not reached
		 * are skips that say why; results.tsv holds only real results */
		for (int j = printed; j < plan.njobs; j++) {
			char why[600];

			if (state[j] == 2) {	/* ended beside an earlier one */
				emit_result(&sink, j, &res[j], &diag[j]);
				state[j] = 3;
				continue;
			}
			if (state[j] == 4)
				snprintf(why, sizeof(why), "interrupted by signal %d while it ran: not a result",
					 (int)stop_sig);
			else
				snprintf(why, sizeof(why), "not run: the run was interrupted by signal %d",
					 (int)stop_sig);
			pa_ktap_result(stdout, j + 1, plan.jobs[j].name, PA_SKIP, why);
			if (tap)
				pa_ktap_result(tap, j + 1, plan.jobs[j].name, PA_SKIP, why);
		}
	}
	if (sink.progress)
		fprintf(stderr, "\r\033[K");
	/* the summary reads the results printed, in order */
	done = 0;
	for (int j = 0; j < plan.njobs; j++)
		if (state[j] == 3)
			res[done++] = res[j];
	for (int j = 0; j < plan.njobs; j++) {
		free(diag[j].out);
		free(diag[j].tap);
	}
	free(diag);
	free(slots);
	free(state);
	free(order);
	pa_matrix_end(&plan);
	if (plan.notes[0])
		printf("%s\n", plan.notes);
	{
		char mp[PATH_MAX + 16];

		if (o.abi_map)
			snprintf(mp, sizeof(mp), "%s", o.abi_map);
		else
			snprintf(mp, sizeof(mp), "%s/../abi-map.txt", cdir);
		have_abi = abi_coverage(mp, all, nsel, &abi);
	}
	if (stop_sig) {
		printf("# interrupted by signal %d after %d of %d runs%s%s; global settings restored\n",
		       (int)stop_sig, done, plan.njobs, interrupted ? ", during " : "",
		       interrupted ? interrupted : "");
		rc = 128 + (int)stop_sig;	/* as a shell reports a signal */
	}
	if (tap) {
		pa_print_totals(tap, &counts);
		fclose(tap);
	}
	if (tsv)
		fclose(tsv);
	{
		/* one summary: in the run directory, and where --json says */
		const char *id = strrchr(run_dir, '/');
		const char *run_id = id ? id + 1 : run_dir;
		long total_ms = now_ms() - t0;

		for (int k = 0; k < 2; k++) {
			FILE *js = k ? (o.json ? fopen(o.json, "w") : NULL) :
				       (run_dir[0] ? open_in(run_dir, "summary.json") : NULL);

			if (!js) {
				if (k && o.json) {
					fprintf(stderr, "perfabi-run: cannot write %s: %s\n", o.json, strerror(errno));
					rc = 2;
				}
				continue;
			}
			write_summary(js, &ctx, run_id, res, done, &counts, total_ms, &plan,
				      have_abi ? &abi : NULL, (int)stop_sig, interrupted);
			if (fclose(js) && k) {
				fprintf(stderr, "perfabi-run: cannot write %s: %s\n", o.json, strerror(errno));
				rc = 2;
			}
		}
	}
	if (o.kcidb && write_kcidb(o.kcidb, o.origin ? o.origin : "perfabi", &ctx, run_dir, res, done)) {
		fprintf(stderr, "perfabi-run: cannot write %s: %s\n", o.kcidb, strerror(errno));
		rc = 2;
	}
	if (o.junit && write_junit(o.junit, ctx.release, res, done)) {
		fprintf(stderr, "perfabi-run: cannot write %s: %s\n", o.junit, strerror(errno));
		rc = 2;
	}
	if (run_dir[0]) {
		FILE *hf = open_in(run_dir, "report.html");

		if (!hf || write_html(hf, run_dir, ctx.release, res, done)) {
			fprintf(stderr, "perfabi-run: cannot write %s/report.html: %s\n", run_dir, strerror(errno));
			rc = 2;
		}
		printf("# results: %s (report.html: the results as a page)\n", run_dir);
	}
	if (have_abi)
		printf("# ABI map: the cases run cover %d of %d elements (%d more untestable with a reason, %d %s)\n",
		       abi.covered, abi.total, abi.untestable, abi.missing,
		       nsel < nall ? "not covered by the selected cases" : "without a case");
	pa_matrix_totals(stdout, &plan, res, done);
	print_skip_reasons(stdout, res, done);
	print_failures(stdout, res, done);
	pa_print_totals(stdout, &counts);
	if (counts.n[PA_FAIL] && !stop_sig && !rc)
		rc = 1;	/* an output that could not be written (2) stays 2 */
	free(res);
	free(all);
	return rc;
}
