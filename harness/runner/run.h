/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One run of perfabi-run, as its phases share it: main.c parses, selects
 * and plans; sched.c runs the plan's results and prints each result in plan
 * order; kmsg.c watches the kernel's taint and log around each case;
 * outputs.c writes the run directory (summary.json, report.html), the
 * --json/--junit/--kcidb files and the end-of-run text.
 */
#ifndef PERFABI_RUN_H
#define PERFABI_RUN_H

#include "runner.h"
#include "matrix.h"
#include "abimap.h"

#include <limits.h>

struct pa_run {
	struct pa_opts o;
	const char *cdir;		/* where the case binaries are */
	struct pa_case_info *all;	/* discovered; the selected first */
	int nall, nsel;
	struct pa_context ctx;
	struct pa_plan plan;
	struct pa_result *res;		/* by result; after pa_run_plan() the
					 * results printed, in plan order */
	int done;			/* how many of those */
	struct pa_counts counts;
	FILE *tap, *tsv;		/* run.tap, results.tsv (NULL: --no-results) */
	char run_dir[1024];		/* "" with --no-results */
	char mount_note[300], stage_note[PATH_MAX + 300];
	long t0;			/* pa_now_ms() at the start */
	int kmsg_fd;			/* /dev/kmsg, or -1 */
	unsigned long taint;		/* the kernel's taint before the next case */
	int stop_sig;			/* the signal that interrupted the run, or 0 */
	const char *interrupted;	/* the first result it interrupted, or NULL */
	struct pa_abimap_stats abi;
	bool have_abi;
};

/* ---- sched.c: running the plan ---- */
/* SIGINT, SIGTERM and SIGHUP end the run cleanly from here on. */
void pa_catch_stop(void);
/* Run every result of r->plan, up to -j at once, and print each result in
 * plan order (stdout, run.tap, results.tsv); r->res/r->done then hold the
 * results printed, r->stop_sig/r->interrupted say whether a signal came. */
void pa_run_plan(struct pa_run *r);

/* ---- kmsg.c: the kernel's taint and log around each case ---- */
/* /proc/sys/kernel/tainted, or 0 when unreadable. */
unsigned long pa_taint_read(void);
/* Taint bits that count as trouble: all but TAINT_TEST. */
bool pa_taint_grew(unsigned long before, unsigned long after);
/* A new taint bit, or a kernel-log line of trouble, while r's case ran
 * fails it (say so on out, and on tap when there is one). */
void pa_taint_after_case(struct pa_result *r, unsigned long before, unsigned long after,
			 FILE *out, FILE *tap);
void pa_kmsg_after_case(int fd, struct pa_result *r, FILE *out, FILE *tap);

/* ---- outputs.c: what a run leaves ---- */
/* Remember when the run started (RFC 3339, UTC: summary.json, KCIDB). */
void pa_mark_start(void);
/* results/<id>: a new directory, never one reused; -1 with errno. */
int pa_make_run_dir(const struct pa_opts *o, const char *release, char *dir, size_t len);
/* dir/name, opened for writing (close-on-exec), or NULL. */
FILE *pa_open_in(const char *dir, const char *name);
/* summary.json (run directory and --json), --kcidb, --junit, report.html;
 * 0, or 2 after saying on stderr which could not be written. */
int pa_write_outputs(struct pa_run *r);
/* The end of the run on stdout: the ABI map line, the totals per cell,
 * the commonest skip reasons, the failures and XPASSes, the totals. */
void pa_print_run_end(const struct pa_run *r);

/* ---- abimap.c: the ABI map as the runner uses it ---- */
/* --abi-check MAP: every map element has a case or a reason, the cases
 * name only map elements; the exit status (0, 1, 2). */
int pa_abi_check(const char *map, const struct pa_case_info *cases, int n);
/* What the cases of the run cover of the map at path; false when there
 * is no readable map. */
bool pa_abi_coverage(const char *path, const struct pa_case_info *cases, int n,
		     struct pa_abimap_stats *st);

#endif
