/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfabi-report: reads results.tsv files (name TAB outcome TAB duration_ms
 * TAB detail, one line per result, see results/README.md) and compares or
 * tabulates them. The parsing and comparison live in report_lib.c so that
 * tests/unit/test_report.c can check them.
 */
#ifndef PERFABI_REPORT_H
#define PERFABI_REPORT_H

#include <stdbool.h>
#include <stdio.h>

/* One result (struct pa_result) and its outcome (enum pa_outcome) are
 * the runner's own: lib/internal.h, perfabi.h. */
#include "lib/internal.h"

/* One set of results: a run directory, or one kernel of a VM run. */
struct rp_run {
	char *dir;
	char *label;		/* column title: the directory's base name */
	struct pa_result *r;
	int n, cap;
};

struct rp_runs {
	struct rp_run *v;
	int n, cap;
};

/*
 * Parse one results.tsv line (without or with its newline) into r (strings
 * allocated). Returns 0, or -1 for a malformed line (fewer than two fields,
 * an unknown outcome, an empty name).
 */
int rp_parse_line(const char *line, struct pa_result *r);
void rp_result_free(struct pa_result *r);

/* Parse a whole results.tsv text into run; malformed lines are errors. */
int rp_parse_text(struct rp_run *run, const char *text, char *err, size_t errlen);

/*
 * Load DIR: DIR/results.tsv is one run; otherwise every DIR/<sub>/results.tsv
 * is one run each (a VM run: one directory per kernel), in name order.
 * Appends to runs; returns 0, or -1 with a message in err.
 */
int rp_load(struct rp_runs *runs, const char *dir, char *err, size_t errlen);
void rp_runs_free(struct rp_runs *runs);
void rp_run_free(struct rp_run *run);

/* The result named name in run, or NULL. */
const struct pa_result *rp_find(const struct rp_run *run, const char *name);

/*
 * The rename map (cases/renames.txt): a moved case's old name and its new
 * one ("area/case" each), so that results recorded before a move compare
 * with results recorded after it. A line is "OLD NEW"; '#' starts a
 * comment; a case moved twice has two lines (A B, then B C).
 */
struct rp_renames {
	char **from, **to;
	int n;
};
/* Parse text (what names it in messages); -1 with a message in err for a
 * malformed line, an old name given twice, or moves that go round in a
 * circle. */
int rp_renames_parse(struct rp_renames *m, const char *text, const char *what,
		     char *err, size_t errlen);
/* Read and parse the file path; -1 with a message in err (errno ENOENT
 * when it does not exist). */
int rp_renames_load(struct rp_renames *m, const char *path, char *err, size_t errlen);
void rp_renames_free(struct rp_renames *m);
/* The name the case cas has now (followed through every later move), or
 * NULL when cas never moved. */
const char *rp_renamed(const struct rp_renames *m, const char *cas);
/* Give each result of run named by an old case name the case's new name
 * (its cell, "@identity,paranoid=N", stays). Returns how many it renamed. */
int rp_rename_run(struct rp_run *run, const struct rp_renames *m);

/* What changed between two runs of the same kernel (or two kernels). */
struct rp_diff {
	int regressed;		/* pass/xfail/xpass -> fail */
	int fixed;		/* fail -> pass/xfail/xpass */
	int newly_skipped;	/* anything else -> skip */
	int unskipped;		/* skip -> something else than fail */
	int added, removed;	/* results only in B / only in A */
	int other;		/* any other change of outcome */
	int same;
};

/*
 * Compare a (before) with b (after); print each change as one line to out
 * (NULL: count only) grouped by kind, and fill d. Returns d->regressed.
 */
int rp_compare(const struct rp_run *a, const struct rp_run *b, FILE *out,
	       struct rp_diff *d);
/* The same; results only one side has (a filtered or interrupted run) are
 * counted, and listed only when list_unpaired. */
int rp_compare_ex(const struct rp_run *a, const struct rp_run *b, FILE *out,
		  struct rp_diff *d, bool list_unpaired);

/* The case x (run, cell) table. */
struct rp_column {
	const struct rp_run *run;
	const char *cell;
};
struct rp_matrix {
	char **cases;		/* sorted */
	int ncases;
	struct rp_column *cols;	/* runs in order, cells by paranoid, identity */
	int ncols;
};
int rp_matrix_build(struct rp_matrix *m, const struct rp_runs *runs);
void rp_matrix_free(struct rp_matrix *m);
/* The result of case in column c, or NULL (not run there). */
const struct pa_result *rp_matrix_at(const struct rp_matrix *m, int c, const char *cas);
/* Order of cells: by paranoid level, then root, perfmon, sysadmin, user. */
int rp_cell_cmp(const char *a, const char *b);

void rp_matrix_text(FILE *f, const struct rp_matrix *m, bool colour);
void rp_matrix_html(FILE *f, const struct rp_matrix *m, const struct rp_runs *runs);
void rp_junit(FILE *f, const struct rp_run *run);

/*
 * KernelCI's KCIDB I/O JSON, schema v5.3 (github.com/kernelci/kcidb-io): one
 * checkout and one build per run (the kernel under test), one test per
 * result. tests/kcidb/ has the field rules the output is checked against.
 */
struct rp_kcidb_meta {
	const char *id;		/* unique among this origin's runs: host/run-id/label */
	const char *release;	/* uname -r of the kernel under test, or NULL */
	const char *arch;	/* uname -m, or NULL */
	const char *config_name;	/* the kernel config's name where known, or NULL */
	const char *start_time;	/* RFC 3339, or NULL */
	const char *comment;	/* a line for people, or NULL */
};
/* Lower-case letters, digits and '_' (KCIDB's origin and id prefix). */
bool rp_kcidb_origin_ok(const char *origin);
/* "area/case@identity,paranoid=N" -> "perfabi.area.case.identity_pN";
 * any other character than [A-Za-z0-9_-] becomes '_'. */
void rp_kcidb_path(char *out, size_t len, const char *name);
/* PASS, FAIL, SKIP, ERROR (the case binary broke, not the kernel);
 * xfail -> FAIL (the known bug is there), xpass -> PASS. */
const char *rp_kcidb_status(const struct pa_result *r);
void rp_kcidb(FILE *f, const char *origin, const struct rp_runs *runs,
	      const struct rp_kcidb_meta *meta);

/* Escape for HTML/XML text and attributes. */
void rp_xml_str(FILE *f, const char *s);

/* vm.c: perfabi-report vm-stream, vm-collect, vm-summary (what a --vm
 * guest left); returns -1 for another command */
int rp_vm_main(const char *cmd, int argc, char **argv);
/* kcov.c: perfabi-report kcov-summary (what ./run.sh --kcov reached) */
int rp_kcov_summary(int argc, char **argv);

#endif
