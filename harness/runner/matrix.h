/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The privilege x paranoid matrix: which identity and which
 * kernel.perf_event_paranoid level each case runs under, switching identity
 * in the forked child and the sysctl around the runs, with a lock against
 * concurrent runs and a journal that survives SIGKILL.
 */
#ifndef PERFABI_MATRIX_H
#define PERFABI_MATRIX_H

#include "runner.h"
#include <limits.h>

#define PA_NO_LEVEL INT_MIN	/* leave perf_event_paranoid as it is */

struct pa_identity {
	const char *name;	/* root, perfmon, sysadmin, user */
	uid_t uid;
	gid_t gid;
	uint64_t caps;		/* effective = permitted = ambient */
};
extern const struct pa_identity pa_identities[4];
const struct pa_identity *pa_identity_find(const char *name);
/* The identity the calling process has, or NULL if none matches. */
const struct pa_identity *pa_identity_current(uid_t uid, uint64_t caps);
/* Become `id` (in a forked child, before exec): 0 or -1 with errno. */
int pa_identity_become(const struct pa_identity *id);

struct pa_planned {
	struct pa_case_info *ci;
	const struct pa_identity *id;	/* NULL: as the runner is */
	int level;			/* PA_NO_LEVEL: as it is */
	char name[192];
	char skip_reason[160];		/* not runnable in this cell */
};

struct pa_plan {
	struct pa_planned *planned;	/* the results of the plan: a case in a cell */
	int nplanned;
	bool switches;			/* identities differ from the runner's */
	int nlevels;
	int levels[8];
	int nids;
	const struct pa_identity *ids[4];
	/* state while running */
	int saved_level;		/* PA_NO_LEVEL when untouched */
	int lock_fd;
	int machine_lock_fd;		/* root: one run per machine (the
					 * sysctls are global, whatever the
					 * state directory) */
	char lock_held[2][320];		/* lock, machine lock: the pid lock
					 * files where flock() is missing */
	char state_dir[256];
	bool sysctls_saved;		/* dir/sysctls written by this run */
	char notes[1024];		/* "# " lines for after the TAP header */
};

/* Comma lists: "-1,0,2" and "root,user". -1 with a message on bad input. */
int pa_parse_levels(const char *s, int *levels, int max, char *err, size_t errlen);
int pa_parse_identities(const char *s, const struct pa_identity **ids, int max,
			char *err, size_t errlen);

/* An empty plan holding nothing (before pa_matrix_begin). */
void pa_plan_init(struct pa_plan *p);
/* Fill the planned results (the run state of p is kept). */
int pa_plan_build(struct pa_plan *p, const struct pa_opts *o,
		  const struct pa_context *ctx, struct pa_case_info *cases,
		  int ncases, char *err, size_t errlen);
void pa_plan_json(FILE *f, const struct pa_plan *p);
/* The order results start in (indices into p->planned). grouped: the
 * results of one paranoid level together, .alone ones last, identity by
 * identity (the level is a global sysctl, so a parallel run drains at
 * every change of it), destructive ones still last, plan order within a
 * group; else plan order. */
void pa_plan_order(const struct pa_plan *p, bool grouped, int *order);

/* As root, when results run as uid 65534 and it cannot reach the case
 * binaries or fixtures under cdir (a 0700 directory above them): bind-mount
 * them under the run's private directory in a private mount namespace and
 * point the cases' paths there. 0 nothing to do, 1 staged (note says so),
 * -1 cannot (err: one line). */
int pa_stage_cases(const struct pa_plan *p, const char *cdir, char *note, size_t nlen,
		   char *err, size_t elen);

/* Lock, replay a journal left by a killed run, save the current level. */
int pa_matrix_begin(struct pa_plan *p, char *err, size_t errlen);
/* Set the result's level (journalled) before its run. */
int pa_planned_enter(struct pa_plan *p, const struct pa_planned *pr, char *err, size_t errlen);
/* exec setup hook: switch to the result's identity in the child. */
int pa_planned_setup(void *pr);
/* Restore the level and the other perf sysctls (notes says what changed),
 * drop the journal and the lock. Safe to call twice. */
void pa_matrix_end(struct pa_plan *p);
/* Per identity and level counts, as "# " lines. */
void pa_matrix_totals(FILE *f, const struct pa_plan *p, const struct pa_result *r, int n);

/* Journal primitives (exposed for the unit tests). */
int pa_journal_write(const char *dir, int level);
/* Restore a level found in the journal; returns the level, or PA_NO_LEVEL
 * when there was no journal. */
int pa_journal_replay(const char *dir, int (*set_level)(int));
int pa_paranoid_set(int level);
#endif
