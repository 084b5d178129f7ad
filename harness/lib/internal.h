/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pieces shared by the case library, the runner and the unit tests. Kept
 * free of process-global state where possible so cmocka can test them.
 */
#ifndef PERFABI_INTERNAL_H
#define PERFABI_INTERNAL_H

#include "../perfabi.h"
#include <stdio.h>

#define PA_MAX_PMUS 64

/*
 * One result: what the runner makes of a case's run in one cell, what
 * results.tsv holds one line of, and what every writer (KTAP, results.tsv,
 * summary.json, JUnit, KCIDB, HTML) and perfabi-report's readers use.
 */
struct pa_result {
	char name[192];			/* area/case[@identity,paranoid=N] */
	char cas[160];			/* area/case: the name up to its '@' */
	char cell[64];			/* identity,paranoid=N, or "" */
	enum pa_outcome outcome;
	long duration_ms;
	char detail[512];
};

/* What the runner knows of a case: its place, and what of its --info it
 * keeps (lib/info.c has the table of --info lines). */
struct pa_case_info {
	char name[128];			/* area/case */
	char path[512];			/* the binary */
	char assertion[512];
	char covers[512];
	int timeout;
	bool privileged;
	bool destructive;
	bool alone;			/* must not run beside other cases */
	char fix[512];			/* the --info "fix:" line, or "" */
};

/* Print a case's --info lines; read them back into ci (its name and path
 * are the runner's). */
void pa_info_print(FILE *f, const struct pa_case *c, const char *name);
/* map the program's code and constants whole, here and in every forked
 * child (textmap.c says why) */
void pa_textmap_init(void);
void pa_info_parse(const char *text, struct pa_case_info *ci);

/* Set r's name, and cas and cell from it. */
void pa_result_name(struct pa_result *r, const char *name);
/* "pass", "fail", "xfail", "xpass", "skip" -> the outcome; -1 otherwise. */
int pa_outcome_parse(const char *s);

/* Everything a requirement or an expectation can depend on. */
struct pa_context {
	struct pa_kver kernel;
	char release[128];		/* uname -r */
	int paranoid;			/* INT_MIN when unreadable */
	bool restricts_all;		/* a level > 2 forbids unprivileged
					 * users all perf use (Debian's patch;
					 * probed by the runner, not by
					 * pa_context_read) */
	uid_t uid;
	uint64_t caps;			/* effective set */
	int ncpus;
	int npmus;
	struct { char name[64]; int type; } pmus[PA_MAX_PMUS];
	const char *tracefs;		/* NULL: not mounted (or not readable) */
	bool tracepoint_ids;		/* the runner handed over the ids
					 * ($PERFABI_TRACEPOINT_IDS) */
	int hw_pmu;			/* 1 yes, 0 no, -1 not probed */
	char hw_pmu_reason[160];
	bool destructive;	/* $PERFABI_DESTRUCTIVE=1: destructive cases may run */
};

/* Fill from the running system (hw_pmu left at -1). */
void pa_context_read(struct pa_context *ctx);
int pa_context_pmu_type(const struct pa_context *ctx, const char *name);

/* The reason the case cannot run in ctx, or NULL. buf holds the text. */
const char *pa_requirements_unmet(const struct pa_case *c,
				  const struct pa_context *ctx,
				  char *buf, size_t len);
/* "lo..hi", "lo..", "..hi" or "n": -1 on a malformed range. */
int pa_range_parse(const char *s, int *lo, int *hi);
/* Is the running kernel inside a known bug's range? */
bool pa_known_bug_applies(const struct pa_known_bug *b, struct pa_kver k);
/* Where the bug is, as text: "from..to, fixed in X; A..B C.." */
void pa_known_bug_range(const struct pa_known_bug *b, char *buf, size_t len);
/* Apply the xfail rule to a raw outcome. */
enum pa_outcome pa_classify(enum pa_outcome raw, const struct pa_known_bug *b,
			    struct pa_kver k);

/* Debian-style version strings in uname -v ("Debian 6.1.176-1"). */
int pa_kver_from_uname(const char *release, const char *version,
		       struct pa_kver *out);

/* ---- KTAP emitter ------------------------------------------------------ */
/* The version line: kselftest's (kselftest.h ksft_print_header()), which
 * ktap.rst accepts as KTAP's and every TAP consumer reads (a "KTAP version
 * 1" line is non-TAP data to tap.py and to tap-parser in strict mode). */
#define PA_KTAP_VERSION "TAP version 13"
void pa_ktap_header(FILE *f, int planned);
/* detail: skip reason, xfail reason, or a note; may be NULL. */
void pa_ktap_result(FILE *f, int n, const char *name, enum pa_outcome o,
		    const char *detail);
/* Parse one result line; returns 1 and fills the outputs when it is one. */
int pa_ktap_parse_result(const char *line, int *n, char *name, size_t nlen,
			 enum pa_outcome *o, char *detail, size_t dlen);
/* Make text one line of valid UTF-8 (control characters become spaces,
 * bytes that are not UTF-8 become '?'). */
void pa_ktap_sanitize(char *s);
/* The same, keeping newlines: the one place where text from the kernel or a
 * case (diagnostics, kernel log lines) is made valid UTF-8. */
void pa_text_sanitize(char *s, bool keep_newlines);
/* A pass's note or a failure's reason: the diagnostic line before its result
 * line. pa_ktap_detail_line() gives the text of such a line, else NULL. */
#define PA_KTAP_DETAIL "# detail: "
const char *pa_ktap_detail_line(const char *line);

void pa_json_str(FILE *f, const char *s);	/* a JSON string, quoted */

/* ---- state a case's body shares with its supervising parent ------------ */
#define PA_MAX_SAVED_SYSCTLS 16
struct pa_shared {
	volatile int failures;		/* assertions failed, any process */
	volatile int checks;		/* assertions evaluated, any process */
	volatile int skipped;		/* pa_skip() was called */
	char skip_reason[256];
	char variant[256];		/* what pa_since() decided */
	char first_failure[256];	/* for the one-line summary */
	int nsaved;
	struct { char name[128]; char value[256]; } saved[PA_MAX_SAVED_SYSCTLS];
	/* things other cases running beside this one would see or disturb
	 * (a CPU-wide event, a sysctl, pinning): with -j only a case
	 * declared .alone may do them */
	volatile int global_actions;
	char global_what[64];
};
/* Record one such thing (the first one's name is kept). */
void pa_note_global(const char *what);
/* Mapped MAP_SHARED before the fork; points at a private copy otherwise
 * (so helpers and unit tests can call the check functions). */
extern struct pa_shared *pa_state;
/* Count one evaluated assertion (a pass with none is a silent pass). */
void pa_checked(void);
/* A sysctl under procsys ("/proc/sys", or a fake tree in unit tests):
 * its first line without the newline / write value and a newline. */
int pa_sysctl_read_at(const char *procsys, const char *name, char *buf, size_t len);
int pa_sysctl_write_at(const char *procsys, const char *name, const char *value);
/* Put back every saved sysctl; returns how many failed to restore. */
int pa_restore_sysctls(struct pa_shared *s);

/* The ranges of a CPU list ("0-3,8\n", as sysfs writes one), in order:
 * fn(lo, hi, arg) until it returns non-zero, which is returned; 0 at the
 * end of the list (lib/system.c). */
int pa_cpulist_each(const char *list, int (*fn)(long lo, long hi, void *arg), void *arg);
/* The id of sys:event in the list the runner wrote as root before any
 * identity switch ($PERFABI_TRACEPOINT_IDS, "sys event id" lines: tracefs
 * is root-only by default), or -1 (system.c; the runner's tpkeep.c too). */
long pa_tracepoint_listed_id(const char *sys, const char *event);
/* Whether the runner keeps a kprobe on the entry function of syscall name
 * when a case asks (runner/tpkeep.c): one of pa_kprobe_keepable[], the
 * syscalls the library's kprobes probe (system.c). */
bool pa_kprobe_keepable_syscall(const char *name);
/* The first word of a FIFO line asking for a kprobe: "kprobe-syscall NAME"
 * (no tracepoint system has a '-' in its name). */
#define PA_KEEP_KPROBE "kprobe-syscall"
/* Ask the runner to keep a kprobe on kernel function func when func is the
 * entry function of a keepable syscall; else nothing (system.c). */
void pa_kprobe_keep_ask(const char *func);
/* The disabled kprobe attr of pa_kprobe_attr() for the kprobe PMU of type
 * type, asking nothing of the runner (privilege.c; the runner's too). */
struct perf_event_attr pa_kprobe_attr_of(int type, const char *func, bool retprobe);
/* pa_syscall_symbol() into buf (privilege.c). */
void pa_syscall_symbol_into(const char *name, char *buf, size_t len);
/* The running case declared .tracepoint_unkept: pa_tracepoint_id() and
 * pa_kprobe_attr() ask the runner to keep nothing (system.c; set by case_main.c). */
extern bool pa_tracepoint_unkept;

#endif
