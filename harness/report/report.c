// SPDX-License-Identifier: GPL-2.0
/*
 * perfabi-report: what the results say across runs and kernels.
 *
 *   perfabi-report matrix [--html FILE] [--junit-dir DIR] [--quiet] RUNDIR...
 *   perfabi-report compare [--all] [--renames FILE] RUN_A RUN_B
 *   perfabi-report kcidb [--origin NAME] [--out FILE] RUNDIR...
 *   perfabi-report vm-stream | vm-collect ... DIR | vm-summary RUNDIR LABEL...
 *   perfabi-report kcov-summary --label L --release R --groups FILE KDIR
 *
 * A RUNDIR holds results.tsv (one run), or one subdirectory with a
 * results.tsv per kernel (a ./run.sh --vm run).
 */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fputs("usage: perfabi-report matrix [--html FILE] [--junit-dir DIR] [--quiet] RUNDIR...\n"
	      "       perfabi-report compare [--all] [--renames FILE] RUN_A RUN_B\n"
	      "       perfabi-report kcidb [--origin NAME] [--out FILE] RUNDIR...\n"
	      "       perfabi-report vm-stream | vm-collect OPTIONS DIR | vm-summary RUNDIR LABEL...\n"
	      "       perfabi-report kcov-summary --label L --release R --groups FILE KDIR\n"
	      "\n"
	      "matrix   one row per case, one column per (run or kernel, identity,\n"
	      "         paranoid level): pass, fail, skip, xfail, xpass; --html writes\n"
	      "         a self-contained page, --junit-dir one JUnit XML file per run\n"
	      "compare  what changed from RUN_A to RUN_B in the results both have:\n"
	      "         regressions (pass -> fail), fixes, newly skipped; results only\n"
	      "         one side has (a filtered or interrupted run) are counted on one\n"
	      "         line, and listed with --all; a result named by a moved case's\n"
	      "         old name is compared under its new one (the rename map: FILE,\n"
	      "         default renames.txt next to perfabi-report, which make copies\n"
	      "         from cases/renames.txt)\n"
	      "kcidb    the runs as KernelCI KCIDB I/O JSON (schema v5.3) on stdout or\n"
	      "         in FILE: a checkout and a build per run or kernel, a test per\n"
	      "         result; NAME (default perfabi) is the origin and id prefix\n"
	      "vm-*     what harness/tools/vm.sh (./run.sh --vm) does with a guest's\n"
	      "         console (harness/report/vm.c has their options): its KTAP\n"
	      "         stream, indented (vm-stream, a filter); after the guest ended,\n"
	      "         DIR/console.log read for the kernel's state and trouble, the\n"
	      "         results salvaged or the running case failed, DIR/vm.json\n"
	      "         (vm-collect); the run's closing lines (vm-summary)\n"
	      "kcov-summary  KDIR's lcov tracefiles (suite.info, baseline.info) of a\n"
	      "         ./run.sh --kcov run as table.txt, unentered.txt (by FILE's\n"
	      "         groups) and summary.json\n"
	      "\n"
	      "A RUNDIR holds results.tsv, or subdirectories that do (one per kernel\n"
	      "of a ./run.sh --vm run). compare pairs the kernels of two VM runs by\n"
	      "name.\n"
	      "\n"
	      "Exit status: 0 no regression (compare) or written (matrix, kcidb), 1 a\n"
	      "regression, 2 bad usage or an unreadable run directory.\n", f);
}

static int load_all(struct rp_runs *runs, char **dirs, int n)
{
	char err[4200];

	for (int i = 0; i < n; i++)
		if (rp_load(runs, dirs[i], err, sizeof(err))) {
			fprintf(stderr, "perfabi-report: %s\n", err);
			return -1;
		}
	return 0;
}

static int cmd_matrix(int argc, char **argv)
{
	const char *html = NULL, *junit = NULL;
	bool quiet = false;
	struct rp_runs runs = { 0 };
	struct rp_matrix m;
	int i, rc = 0;

	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--html") && i + 1 < argc) {
			html = argv[++i];
		} else if (!strcmp(argv[i], "--junit-dir") && i + 1 < argc) {
			junit = argv[++i];
		} else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
			quiet = true;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "perfabi-report: matrix: unknown option or missing argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (i >= argc) {
		fprintf(stderr, "perfabi-report: matrix needs at least one RUNDIR (see --help)\n");
		return 2;
	}
	if (load_all(&runs, argv + i, argc - i)) {
		rp_runs_free(&runs);
		return 2;
	}
	rp_matrix_build(&m, &runs);
	if (!quiet)
		rp_matrix_text(stdout, &m, isatty(STDOUT_FILENO) && !getenv("NO_COLOR"));
	if (html) {
		FILE *f = fopen(html, "we");

		if (!f) {
			fprintf(stderr, "perfabi-report: cannot write %s: %s\n", html, strerror(errno));
			rc = 2;
		} else {
			rp_matrix_html(f, &m, &runs);
			if (fclose(f))
				rc = 2;
			else if (!quiet)
				printf("# HTML: %s\n", html);
		}
	}
	if (junit && !rc) {
		if (mkdir(junit, 0755) && errno != EEXIST) {
			fprintf(stderr, "perfabi-report: cannot create %s: %s\n", junit, strerror(errno));
			rc = 2;
		}
		for (int k = 0; k < runs.n && !rc; k++) {
			char path[4096];
			FILE *f;

			snprintf(path, sizeof(path), "%s/%s.xml", junit, runs.v[k].label);
			for (char *p = path + strlen(junit) + 1; *p; p++)
				if (*p == '/' || *p == '#')
					*p = '_';
			f = fopen(path, "we");
			if (!f) {
				fprintf(stderr, "perfabi-report: cannot write %s: %s\n", path, strerror(errno));
				rc = 2;
				break;
			}
			rp_junit(f, &runs.v[k]);
			fclose(f);
		}
		if (!rc && !quiet)
			printf("# JUnit XML: %s/\n", junit);
	}
	rp_matrix_free(&m);
	rp_runs_free(&runs);
	return rc;
}

static void print_diff(const struct rp_diff *d, bool all)
{
	printf("# %d regressed, %d fixed, %d newly skipped, %d no longer skipped, "
	       "%d other changes, %d unchanged\n",
	       d->regressed, d->fixed, d->newly_skipped, d->unskipped, d->other, d->same);
	if (d->added || d->removed)
		printf("# %d result(s) only in B, %d only in A: not compared%s\n",
		       d->added, d->removed, all ? "" : " (--all lists them)");
}

/* A run's summary.json says it was interrupted: say so, once. */
static void note_interrupted(const struct rp_run *run)
{
	char path[4200], buf[8192];
	const char *p;
	FILE *f;
	size_t n;
	int sig = 0, completed = 0, planned = 0;

	snprintf(path, sizeof(path), "%s/summary.json", run->dir);
	f = fopen(path, "r");
	if (!f)
		return;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strstr(buf, "\"interrupted\": {");
	if (p && sscanf(p, "\"interrupted\": {\"signal\": %d, \"completed\": %d, \"planned\": %d",
			&sig, &completed, &planned) == 3)
		printf("# %s was interrupted by signal %d after %d of %d runs: only its "
		       "%d results are compared\n", run->dir, sig, completed, planned, completed);
}

/* The rename map: --renames FILE, else renames.txt next to this program
 * (build/renames.txt, a copy of cases/renames.txt; none there: no moves).
 * 0, or -1 after a message (a map asked for by name must be readable). */
static int load_renames(struct rp_renames *m, const char *file, char *used, size_t len)
{
	char err[4200];

	memset(m, 0, sizeof(*m));
	if (!file) {
		ssize_t n = readlink("/proc/self/exe", used, len - sizeof("/renames.txt"));
		char *slash;

		if (n <= 0)
			return 0;
		used[n] = 0;
		slash = strrchr(used, '/');
		if (!slash)
			return 0;
		strcpy(slash, "/renames.txt");
	} else {
		snprintf(used, len, "%s", file);
	}
	if (rp_renames_load(m, used, err, sizeof(err))) {
		if (!file && errno == ENOENT)
			return 0;
		fprintf(stderr, "perfabi-report: %s\n", err);
		return -1;
	}
	return 0;
}

/* Results named by a moved case's old name take its new one; say so. */
static void rename_runs(struct rp_runs *a, struct rp_runs *b, const struct rp_renames *m,
			const char *map, char **argv)
{
	int na = 0, nb = 0;

	for (int i = 0; i < a->n; i++)
		na += rp_rename_run(&a->v[i], m);
	for (int i = 0; i < b->n; i++)
		nb += rp_rename_run(&b->v[i], m);
	if (na || nb)
		printf("# %d result(s) of %s and %d of %s are named by a moved case's old name: "
		       "compared under its new one (%s)\n", na, argv[0], nb, argv[1], map);
}

static int cmd_compare(int argc, char **argv)
{
	struct rp_runs a = { 0 }, b = { 0 };
	struct rp_renames ren;
	char map[PATH_MAX];
	const char *renames = NULL;
	int regressed = 0, pairs = 0;
	bool all = false;

	while (argc > 0 && argv[0][0] == '-') {
		if (!strcmp(argv[0], "--all")) {
			all = true;
		} else if (!strcmp(argv[0], "--renames") && argc > 1) {
			renames = argv[1];
			argc--;
			argv++;
		} else if (!strcmp(argv[0], "--")) {
			argc--;
			argv++;
			break;
		} else {
			fprintf(stderr, "perfabi-report: compare: unknown option or missing argument '%s'\n", argv[0]);
			return 2;
		}
		argc--;
		argv++;
	}
	if (argc != 2) {
		fprintf(stderr, "perfabi-report: compare needs two run directories: [--all] [--renames FILE] RUN_A RUN_B\n");
		return 2;
	}
	if (load_renames(&ren, renames, map, sizeof(map)))
		return 2;
	if (load_all(&a, argv, 1) || load_all(&b, argv + 1, 1)) {
		rp_runs_free(&a);
		rp_runs_free(&b);
		rp_renames_free(&ren);
		return 2;
	}
	printf("# compare %s -> %s\n", argv[0], argv[1]);
	rename_runs(&a, &b, &ren, map, argv);
	rp_renames_free(&ren);
	if (a.n == 1 && b.n == 1) {
		struct rp_diff d;

		note_interrupted(&a.v[0]);
		note_interrupted(&b.v[0]);
		regressed = rp_compare_ex(&a.v[0], &b.v[0], stdout, &d, all);
		print_diff(&d, all);
		pairs = 1;
	} else {
		/* VM runs: pair the kernels by name, and say which have no pair */
		for (int side = 0; side < 2; side++) {
			const struct rp_runs *x = side ? &b : &a, *y = side ? &a : &b;

			for (int i = 0; i < x->n; i++) {
				bool found = false;

				for (int j = 0; j < y->n; j++)
					found |= !strcmp(x->v[i].label, y->v[j].label);
				if (!found)
					printf("# kernel %s is only in %s: not compared\n",
					       x->v[i].label, side ? argv[1] : argv[0]);
			}
		}
		for (int i = 0; i < a.n; i++)
			for (int j = 0; j < b.n; j++) {
				struct rp_diff d;

				if (strcmp(a.v[i].label, b.v[j].label))
					continue;
				printf("# kernel %s\n", a.v[i].label);
				note_interrupted(&a.v[i]);
				note_interrupted(&b.v[j]);
				regressed += rp_compare_ex(&a.v[i], &b.v[j], stdout, &d, all);
				print_diff(&d, all);
				pairs++;
			}
		if (!pairs) {
			fprintf(stderr, "perfabi-report: no kernel of %s is in %s: nothing to compare\n",
				argv[0], argv[1]);
			rp_runs_free(&a);
			rp_runs_free(&b);
			return 2;
		}
	}
	printf("%s\n", regressed ? "REGRESSED" : "no regression");
	rp_runs_free(&a);
	rp_runs_free(&b);
	return regressed ? 1 : 0;
}

/* The string value of "key" in a JSON file perfabi wrote (summary.json,
 * vm.json: one key a line, no escapes that matter here), or "". */
static void json_get(const char *dir, const char *file, const char *key, char *out, size_t len)
{
	char path[4200], line[4096], pat[128];
	FILE *f;

	out[0] = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	snprintf(pat, sizeof(pat), "\"%s\": \"", key);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, pat), *q;

		if (!p)
			continue;
		p += strlen(pat);
		q = strchr(p, '"');
		if (q)
			snprintf(out, len, "%.*s", (int)(q - p), p);
		break;
	}
	if (f)
		fclose(f);
}

static int cmd_kcidb(int argc, char **argv)
{
	const char *origin = "perfabi", *outpath = NULL;
	struct rp_runs runs = { 0 };
	struct rp_kcidb_meta *meta;
	char (*buf)[6][512];
	char host[256] = "";
	FILE *out = stdout;
	int i, rc = 0;

	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--origin") && i + 1 < argc) {
			origin = argv[++i];
		} else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
			outpath = argv[++i];
		} else {
			fprintf(stderr, "perfabi-report: kcidb: unknown option or missing argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (!rp_kcidb_origin_ok(origin)) {
		fprintf(stderr, "perfabi-report: bad --origin '%s': lower-case letters, digits and '_' (a KCIDB origin)\n",
			origin);
		return 2;
	}
	if (i >= argc) {
		fprintf(stderr, "perfabi-report: kcidb needs at least one RUNDIR (see --help)\n");
		return 2;
	}
	if (load_all(&runs, argv + i, argc - i)) {
		rp_runs_free(&runs);
		return 2;
	}
	gethostname(host, sizeof(host) - 1);
	meta = calloc((size_t)runs.n + 1, sizeof(*meta));
	buf = calloc((size_t)runs.n + 1, sizeof(*buf));
	for (int k = 0; meta && buf && k < runs.n; k++) {
		const char *dir = runs.v[k].dir, *slash = strrchr(dir, '/');
		char parent[4200];
		const char *pb;

		/* the run (directory) names are unique on their host: a VM
		 * run's kernels are DIR/<run-id>/<kernel> */
		snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - dir) : 0, dir);
		pb = strrchr(parent, '/') ? strrchr(parent, '/') + 1 : parent;
		json_get(dir, "vm.json", "release", buf[k][1], sizeof(buf[k][1]));
		if (!buf[k][1][0])
			json_get(dir, "summary.json", "kernel", buf[k][1], sizeof(buf[k][1]));
		json_get(dir, "summary.json", "machine", buf[k][2], sizeof(buf[k][2]));
		json_get(dir, "summary.json", "start_time", buf[k][3], sizeof(buf[k][3]));
		json_get(dir, "vm.json", "config_name", buf[k][4], sizeof(buf[k][4]));
		{
			char vmj[4300];

			snprintf(vmj, sizeof(vmj), "%s/vm.json", dir);
			if (!access(vmj, F_OK))
				snprintf(buf[k][0], sizeof(buf[k][0]), "%s/%s/%s", host, pb, slash ? slash + 1 : dir);
			else
				snprintf(buf[k][0], sizeof(buf[k][0]), "%s/%s", host, slash ? slash + 1 : dir);
		}
		snprintf(buf[k][5], sizeof(buf[k][5]), "perfabi on %s (%s)%s%s",
			 buf[k][1][0] ? buf[k][1] : runs.v[k].label, buf[k][2][0] ? buf[k][2] : "?",
			 buf[k][4][0] ? ", config " : "", buf[k][4]);
		meta[k].id = buf[k][0];
		meta[k].release = buf[k][1];
		meta[k].arch = buf[k][2];
		meta[k].start_time = buf[k][3];
		meta[k].config_name = buf[k][4];
		meta[k].comment = buf[k][5];
	}
	if (!meta || !buf) {
		rc = 2;
	} else if (outpath && !(out = fopen(outpath, "we"))) {
		fprintf(stderr, "perfabi-report: cannot write %s: %s\n", outpath, strerror(errno));
		rc = 2;
	} else {
		rp_kcidb(out, origin, &runs, meta);
		if (outpath && fclose(out)) {
			fprintf(stderr, "perfabi-report: cannot write %s: %s\n", outpath, strerror(errno));
			rc = 2;
		}
	}
	free(meta);
	free(buf);
	rp_runs_free(&runs);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "matrix"))
		return cmd_matrix(argc - 2, argv + 2);
	if (!strcmp(argv[1], "compare")) {
		if (argc > 2 && (!strcmp(argv[2], "-h") || !strcmp(argv[2], "--help"))) {
			usage(stdout);
			return 0;
		}
		return cmd_compare(argc - 2, argv + 2);
	}
	if (!strcmp(argv[1], "kcidb"))
		return cmd_kcidb(argc - 2, argv + 2);
	if (!strcmp(argv[1], "kcov-summary"))
		return rp_kcov_summary(argc - 2, argv + 2);
	if (!strncmp(argv[1], "vm-", 3)) {
		int rc = rp_vm_main(argv[1], argc - 2, argv + 2);

		if (rc >= 0)
			return rc;
	}
	fprintf(stderr, "perfabi-report: unknown command '%s': matrix, compare, kcidb, vm-stream, vm-collect, vm-summary or kcov-summary (see --help)\n", argv[1]);
	return 2;
}
