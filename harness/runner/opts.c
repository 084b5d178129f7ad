// SPDX-License-Identifier: GPL-2.0
/* Command-line parsing of perfabi-run (unit-tested in tests/unit). */
#include "runner.h"

#include <fnmatch.h>
#include <unistd.h>

void pa_usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s [options] [PATTERN...]\n"
"Runs the perfabi cases on the running kernel and prints one KTAP stream.\n"
"\n"
"  PATTERN              case names or globs (\"open/*\", \"read/*enospc\")\n"
"  -a, --area AREA      only cases of AREA (repeatable)\n"
"  -l, --list           list the selected cases with their assertions\n"
"      --junit FILE     also write the results as JUnit XML to FILE (one\n"
"                       testcase per result; skip and xfail are <skipped>)\n"
"      --kcidb FILE     also write the run as KernelCI KCIDB I/O JSON (schema\n"
"                       v5.3): a checkout and a build for the kernel, a test\n"
"                       per result (docs/output.md, \"KCIDB\")\n"
"      --origin NAME    the KCIDB origin and id prefix (default: perfabi)\n"
"      --json FILE      also write the run summary with every result as JSON\n"
"                       to FILE (what results/<run-id>/summary.json holds)\n"
"      --fixes          list the kernel fixes the selected cases check (the\n"
"                       regress area and cases elsewhere with .fix): commit,\n"
"                       subject, release, CVE, stable releases, the case\n"
"  -v, --verbose        print every case's diagnostics, not only failures'\n"
"      --cases DIR      where the built cases are (default: next to the runner)\n"
"      --results DIR    where run directories go (default: results): each run\n"
"                       writes DIR/<run-id>/run.tap (the KTAP stream),\n"
"                       results.tsv (a line per result), summary.json and\n"
"                       report.html (the results as a page)\n"
"      --run-id ID      name of this run's directory (default: time and kernel)\n"
"      --no-results     write no results directory\n"
"      --timeout-scale X  multiply every case's timeout by X (emulators)\n"
"      --identity LIST  run as these identities: root,perfmon,sysadmin,user\n"
"      --paranoid LIST  at these perf_event_paranoid levels, e.g. -1,0,1,2\n"
"      --abi-map FILE   the ABI coverage map to report on (default:\n"
"                       abi-map.txt next to the runner)\n"
"      --abi-check FILE check that every element of the map is covered by a\n"
"                       case or marked untestable, and that cases name only\n"
"                       elements of the map; run nothing\n"
"      --matrix KIND    default: privilege-sensitive cases in every cell,\n"
"                       the rest as root and user at the current level;\n"
"                       full: every case in every cell. A runner that is\n"
"                       not root runs only its own cell (user = its uid, the\n"
"                       current level); cells named by --identity, --paranoid\n"
"                       or full that it cannot run are skips\n"
"      --destructive    also run the destructive cases (those that may crash\n"
"                       or hang a kernel without their fix), after all the\n"
"                       others; the VM runner passes it\n"
"  -j, --jobs N         run up to N results at once (default: the online\n"
"                       CPUs, at most 64); results that share the paranoid\n"
"                       level run together, a case declared .alone runs by\n"
"                       itself; output order does not depend on N\n"
"      --repeat N       run each planned result N times in a row (1..100),\n"
"                       to see whether a verdict reproduces\n"
"  -h, --help           this text\n"
"\n"
"Exit status: 0 nothing failed, 1 something failed, 2 bad usage.\n",
		prog);
}

static int need_arg(int argc, char **argv, int *i, const char **dst,
		    char *err, size_t errlen)
{
	const char *opt = argv[*i];
	const char *eq = strchr(opt, '=');

	if (!strncmp(opt, "--", 2) && eq) {
		*dst = eq + 1;
		return 0;
	}
	if (*i + 1 >= argc) {
		snprintf(err, errlen, "option '%s' needs an argument", opt);
		return -1;
	}
	*dst = argv[++*i];
	return 0;
}

static bool is_opt(const char *arg, const char *s, const char *l)
{
	size_t n = strlen(l);

	if (s && !strcmp(arg, s))
		return true;
	return !strncmp(arg, l, n) && (arg[n] == 0 || arg[n] == '=');
}

/* Where a pass over argv is, and where its errors go. */
struct opt_ctx {
	int argc;
	char **argv;
	int i;			/* the argument being parsed */
	char *err;
	size_t errlen;
};

/* The options that take no argument: true (and o says so) when a is one. */
static bool parse_flag(struct pa_opts *o, const char *a)
{
	if (is_opt(a, "-h", "--help"))
		o->help = true;
	else if (is_opt(a, "-l", "--list"))
		o->list = true;
	else if (is_opt(a, "-v", "--verbose"))
		o->verbose = true;
	else if (is_opt(a, NULL, "--fixes"))
		o->fixes = true;
	else if (is_opt(a, NULL, "--destructive"))
		o->destructive = true;
	else if (is_opt(a, NULL, "--no-results"))
		o->no_results = true;
	else
		return false;
	return true;
}

/* The options whose argument o keeps as given: where it goes, or NULL when
 * a is none of them. */
static const char **string_opt(struct pa_opts *o, const char *a)
{
	if (is_opt(a, NULL, "--junit"))
		return &o->junit;
	if (is_opt(a, NULL, "--kcidb"))
		return &o->kcidb;
	if (is_opt(a, NULL, "--origin"))
		return &o->origin;
	if (is_opt(a, NULL, "--json"))
		return &o->json;
	if (is_opt(a, NULL, "--cases"))
		return &o->cases_dir;
	if (is_opt(a, NULL, "--results"))
		return &o->results_dir;
	if (is_opt(a, NULL, "--run-id"))
		return &o->run_id;
	if (is_opt(a, NULL, "--identity"))
		return &o->identities;
	if (is_opt(a, NULL, "--paranoid"))
		return &o->paranoids;
	if (is_opt(a, NULL, "--abi-check"))
		return &o->abi_check;
	if (is_opt(a, NULL, "--abi-map"))
		return &o->abi_map;
	if (is_opt(a, NULL, "--matrix"))
		return &o->matrix;
	return NULL;
}

/* The string options with a form to check: --run-id and --matrix. */
static int check_string_opt(const struct pa_opts *o, const char *const *dst,
			    char *err, size_t errlen)
{
	if (dst == &o->run_id &&
	    (!o->run_id[0] || strchr(o->run_id, '/') || o->run_id[0] == '.')) {
		snprintf(err, errlen, "bad --run-id '%s': a plain directory name is needed", o->run_id);
		return -1;
	}
	if (dst == &o->matrix && strcmp(o->matrix, "default") && strcmp(o->matrix, "full")) {
		snprintf(err, errlen, "bad --matrix '%s': default or full", o->matrix);
		return -1;
	}
	return 0;
}

/* A whole number from 1 to max, the argument v of option what. */
static int whole_number(const char *v, const char *what, long max, int *dst,
			char *err, size_t errlen)
{
	char *end;
	long n = strtol(v, &end, 10);

	if (end == v || *end || n < 1 || n > max) {
		snprintf(err, errlen, "bad %s '%s': a whole number from 1 to %ld is needed",
			 what, v, max);
		return -1;
	}
	*dst = (int)n;
	return 0;
}

/* An option that takes an argument, or one that is unknown: 0, or -1 with
 * err set. */
static int parse_arg_opt(struct opt_ctx *c, struct pa_opts *o, const char *a)
{
	const char **dst = string_opt(o, a);
	const char *v;
	char *end;

	if (dst) {
		if (need_arg(c->argc, c->argv, &c->i, dst, c->err, c->errlen))
			return -1;
		return check_string_opt(o, dst, c->err, c->errlen);
	}
	if (is_opt(a, "-a", "--area")) {
		if (need_arg(c->argc, c->argv, &c->i, &v, c->err, c->errlen))
			return -1;
		if (o->nareas >= PA_MAX_PATTERNS) {
			snprintf(c->err, c->errlen, "too many --area options");
			return -1;
		}
		o->areas[o->nareas++] = v;
	} else if (is_opt(a, NULL, "--timeout-scale")) {
		if (need_arg(c->argc, c->argv, &c->i, &v, c->err, c->errlen))
			return -1;
		o->timeout_scale = strtod(v, &end);
		if (end == v || *end || o->timeout_scale <= 0 || o->timeout_scale > 1000) {
			snprintf(c->err, c->errlen, "bad --timeout-scale '%s': a number in (0, 1000] is needed", v);
			return -1;
		}
	} else if (is_opt(a, "-j", "--jobs") || (!strncmp(a, "-j", 2) && a[2] >= '0' && a[2] <= '9')) {
		if (a[1] == 'j' && a[2])
			v = a + 2;	/* -j4 */
		else if (need_arg(c->argc, c->argv, &c->i, &v, c->err, c->errlen))
			return -1;
		return whole_number(v, "-j", 64, &o->parallel, c->err, c->errlen);
	} else if (is_opt(a, NULL, "--repeat")) {
		if (need_arg(c->argc, c->argv, &c->i, &v, c->err, c->errlen))
			return -1;
		return whole_number(v, "--repeat", 100, &o->repeat, c->err, c->errlen);
	} else {
		snprintf(c->err, c->errlen, "unknown option '%s' (try --help)", a);
		return -1;
	}
	return 0;
}

int pa_parse_opts(int argc, char **argv, struct pa_opts *o, char *err, size_t errlen)
{
	struct opt_ctx c = { argc, argv, 1, err, errlen };
	bool dashdash = false;

	memset(o, 0, sizeof(*o));
	o->results_dir = "results";
	o->timeout_scale = 1.0;
	o->repeat = 1;
	for (; c.i < argc; c.i++) {
		const char *a = argv[c.i];

		if (dashdash || a[0] != '-' || !a[1]) {
			if (o->npatterns >= PA_MAX_PATTERNS) {
				snprintf(err, errlen, "too many patterns (max %d)", PA_MAX_PATTERNS);
				return -1;
			}
			o->patterns[o->npatterns++] = a;
			continue;
		}
		if (!strcmp(a, "--"))
			dashdash = true;
		else if (!parse_flag(o, a) && parse_arg_opt(&c, o, a))
			return -1;
	}
	return 0;
}

bool pa_name_selected(const struct pa_opts *o, const char *name)
{
	if (o->nareas) {
		size_t l = strcspn(name, "/");
		bool in = false;

		for (int i = 0; i < o->nareas; i++)
			if (strlen(o->areas[i]) == l && !strncmp(o->areas[i], name, l))
				in = true;
		if (!in)
			return false;
	}
	if (!o->npatterns)
		return true;
	for (int i = 0; i < o->npatterns; i++)
		if (!fnmatch(o->patterns[i], name, 0))
			return true;
	return false;
}

void pa_count(struct pa_counts *c, enum pa_outcome o)
{
	if ((unsigned)o < 5)
		c->n[o]++;
}

void pa_print_totals(FILE *f, const struct pa_counts *c)
{
	fprintf(f, "# totals: %d pass, %d fail, %d skip, %d xfail, %d xpass\n",
		c->n[PA_PASS], c->n[PA_FAIL], c->n[PA_SKIP], c->n[PA_XFAIL], c->n[PA_XPASS]);
	/* nothing but KTAP on a stream: the closing count is a diagnostic,
	 * except for a person at a terminal */
	fprintf(f, "%s%d passed, %d failed, %d skipped\n", isatty(fileno(f)) ? "" : "# ",
		c->n[PA_PASS], c->n[PA_FAIL], c->n[PA_SKIP]);
}

