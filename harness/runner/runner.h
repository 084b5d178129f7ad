/* SPDX-License-Identifier: GPL-2.0 */
/* perfabi-run: discovers the built cases, runs them, reports KTAP. */
#ifndef PERFABI_RUNNER_H
#define PERFABI_RUNNER_H

#include "../lib/internal.h"

#define PA_MAX_PATTERNS 64

struct pa_opts {
	bool list, verbose, no_results, help;
	bool destructive;	/* --destructive: run the destructive cases */
	bool fixes;		/* --fixes: list the kernel fixes the cases check */
	const char *cases_dir;		/* NULL: <runner dir>/cases */
	const char *results_dir;	/* parent of run directories */
	const char *run_id;
	double timeout_scale;
	int parallel;			/* -j: results run at once (0: the online CPUs) */
	int repeat;			/* each planned result this many times */
	int npatterns, nareas;
	const char *patterns[PA_MAX_PATTERNS];
	const char *areas[PA_MAX_PATTERNS];
	/* the privilege x paranoid matrix */
	const char *identities;		/* comma list, NULL: default plan */
	const char *paranoids;		/* comma list, NULL: default plan */
	const char *matrix;		/* "default" or "full" */
	const char *abi_check;		/* --abi-check MAP: check and exit */
	const char *abi_map;		/* --abi-map MAP for the run summary */
	const char *junit, *json;	/* --junit FILE, --json FILE */
	const char *kcidb, *origin;	/* --kcidb FILE, --origin NAME */
};

/* Parse argv; on error writes a one-line message into err and returns -1. */
int pa_parse_opts(int argc, char **argv, struct pa_opts *o, char *err, size_t errlen);
void pa_usage(FILE *f, const char *prog);


/* Every executable below dir, as area/case names, sorted. */
int pa_discover(const char *dir, struct pa_case_info **out, int *n);
/* Fill assertion/covers/timeout/privileged from `binary --info`. */
/* --info of v[0..n), up to planned at once; a failed one gets timeout -1 */
void pa_case_load_infos(struct pa_case_info *v, int n, int parallel);
bool pa_name_selected(const struct pa_opts *o, const char *name);

struct pa_counts { int n[5]; };
void pa_count(struct pa_counts *c, enum pa_outcome o);
/* "N passed, N failed, N skipped" plus the xfail/xpass counts. */
void pa_print_totals(FILE *f, const struct pa_counts *c);

/* Mount tracefs in a private mount namespace when the host has not
 * (root only); 1 mounted, 0 nothing to do, -1 failed; note says which. */
int pa_private_mounts(char *note, size_t len);

/* The kernel log (runner/kmsg.c): open at the end (-1 and why when it
 * cannot be read), and whether the records since the last call hold a
 * WARN/BUG/oops-like line (the first in line). */
int pa_kmsg_open(char *why, size_t len);
bool pa_kmsg_trouble(int fd, char *line, size_t len);
bool pa_kmsg_is_trouble(const char *msg);
/* The run's private directory (runner/private.c): made on first use with
 * mkdtemp() in /run (or /tmp), mode 0755, removed at exit; NULL when it
 * cannot be made. A file in it: O_EXCL|O_NOFOLLOW, 0644 (fd or -1). */
const char *pa_run_private(void);
int pa_create_private_file(const char *dir, const char *name, char *path, size_t len);

/* As root: list every tracepoint id in a world-readable file and name it in
 * $PERFABI_TRACEPOINT_IDS for the cases (tracefs is root-only). The count,
 * or -1. */
int pa_tracepoint_ids_export(void);
/* As root, after the export: the FIFO $PERFABI_TRACEPOINT_KEEP the cases
 * name their tracepoints in, each then kept registered by a disabled event
 * of the runner's until it exits (runner/tpkeep.c). 1, 0 (not root, no
 * tracefs), -1. Drain: read the names written so far and keep them. */
int pa_tp_keep_start(void);
void pa_tp_keep_drain(void);
/* Is sys/event a dynamic event ("p:sys/event ...", "u:", "r10:" ... in
 * tracefs t's dynamic_events, kprobe_events or uprobe_events)? */
bool pa_tp_dynamic_event(const char *t, const char *sys, const char *event);

/* Replace path with text so that a crash leaves the old or the new file
 * whole (written to path.new, fsync, rename): the run's state files. */
int pa_write_file_durably(const char *path, const char *text);
/* Save the perf sysctls a run may change (besides perf_event_paranoid)
 * into dir/sysctls; restore those that differ from it and drop the file.
 * restore returns how many it put back (-1: some failed, file kept), with
 * one "# perfabi: ..." line each in note. procsys is "/proc/sys". */
int pa_sysctls_save(const char *procsys, const char *dir);
int pa_sysctls_restore(const char *procsys, const char *dir, char *note, size_t len);

/* JSON string escaping into f. */

#endif
