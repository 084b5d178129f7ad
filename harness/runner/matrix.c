// SPDX-License-Identifier: GPL-2.0
#include "matrix.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

/* Non-root identities use the traditional unprivileged "nobody" ids. */
#define PA_UNPRIV_UID 65534
#define PA_UNPRIV_GID 65534

const struct pa_identity pa_identities[4] = {
	{ "root", 0, 0, ~0ULL },
	{ "perfmon", PA_UNPRIV_UID, PA_UNPRIV_GID, PA_CAP(PA_CAP_PERFMON) },
	{ "sysadmin", PA_UNPRIV_UID, PA_UNPRIV_GID, PA_CAP(PA_CAP_SYS_ADMIN) },
	{ "user", PA_UNPRIV_UID, PA_UNPRIV_GID, 0 },
};

const struct pa_identity *pa_identity_find(const char *name)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(pa_identities[i].name, name))
			return &pa_identities[i];
	return NULL;
}

const struct pa_identity *pa_identity_current(uid_t uid, uint64_t caps)
{
	if (uid == 0)
		return &pa_identities[0];
	for (int i = 1; i < 4; i++)
		if (pa_identities[i].caps == caps)
			return &pa_identities[i];
	return NULL;
}

int pa_identity_become(const struct pa_identity *id)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (id->uid == 0)
		return geteuid() == 0 ? 0 : (errno = EPERM, -1);
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setresgid(id->gid, id->gid, id->gid) ||
	    setresuid(id->uid, id->uid, id->uid))
		return -1;
	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = d[0].inheritable = (uint32_t)id->caps;
	d[1].effective = d[1].permitted = d[1].inheritable = (uint32_t)(id->caps >> 32);
	if (syscall(SYS_capset, &h, d))
		return -1;
	/* ambient, so the capability survives the execve of the case */
	for (int cap = 0; cap < 64; cap++)
		if ((id->caps & PA_CAP(cap)) &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0))
			return -1;
	return prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
}

int pa_parse_levels(const char *s, int *levels, int max, char *err, size_t errlen)
{
	int n = 0;
	const char *p = s;

	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);

		if (end == p || (*end && *end != ',') || v < -1 || v > 4) {
			snprintf(err, errlen, "bad paranoid level list '%s': levels are -1..4, comma separated", s);
			return -1;
		}
		if (n >= max) {
			snprintf(err, errlen, "too many paranoid levels (max %d)", max);
			return -1;
		}
		levels[n++] = (int)v;
		p = *end ? end + 1 : end;
	}
	if (!n)
		snprintf(err, errlen, "empty paranoid level list");
	return n ? n : -1;
}

int pa_parse_identities(const char *s, const struct pa_identity **ids, int max,
			char *err, size_t errlen)
{
	int n = 0;
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		const struct pa_identity *id = pa_identity_find(t);

		if (!id) {
			snprintf(err, errlen, "unknown identity '%s': root, perfmon, sysadmin or user", t);
			return -1;
		}
		if (n >= max) {
			snprintf(err, errlen, "too many identities");
			return -1;
		}
		ids[n++] = id;
	}
	if (!n)
		snprintf(err, errlen, "empty identity list");
	return n ? n : -1;
}

static void add_planned(struct pa_plan *p, struct pa_case_info *ci,
		    const struct pa_identity *id, int level, const char *why)
{
	struct pa_planned *j = &p->planned[p->nplanned++];

	memset(j, 0, sizeof(*j));
	j->ci = ci;
	j->id = id;
	j->level = level;
	snprintf(j->name, sizeof(j->name), "%s@%s,paranoid=%d", ci->name, id->name, level);
	if (why)
		snprintf(j->skip_reason, sizeof(j->skip_reason), "%s", why);
}

/*
 * What pa_plan_build() works out before it adds any result: who the runner
 * is, and the cells of the cases that are not privilege-sensitive (the
 * privilege-sensitive ones run in the plan's own ids x levels).
 */
struct plan_build {
	const struct pa_context *ctx;
	const struct pa_identity *me;	/* the runner's identity, or NULL */
	int cur;			/* the kernel's current paranoid level */
	bool user_at_2;			/* user also runs the plain cases at 2 */
	int nplain_ids, nplain_levels;
	const struct pa_identity *plain_ids[4];
	int plain_levels[8];
};

/* The identities and levels one case runs in. */
struct case_cells {
	int nl, ni;
	const int *lv;
	const struct pa_identity *const *iv;
};

/* The cells of case ci: every cell of the plan where it is
 * privilege-sensitive, else the plain ones. */
static struct case_cells cells_of(const struct plan_build *b, const struct pa_plan *p,
				 const struct pa_case_info *ci)
{
	bool priv = ci->privileged;

	return (struct case_cells){
		.nl = priv ? p->nlevels : b->nplain_levels,
		.ni = priv ? p->nids : b->nplain_ids,
		.lv = priv ? p->levels : b->plain_levels,
		.iv = priv ? p->ids : b->plain_ids,
	};
}

/* The plan's levels and identities: those asked for, else all of them. */
static int plan_cells(struct pa_plan *p, const struct pa_opts *o, char *err, size_t errlen)
{
	static const int all_levels[] = { -1, 0, 1, 2, 3, 4 };

	if (o->paranoids) {
		p->nlevels = pa_parse_levels(o->paranoids, p->levels, 8, err, errlen);
		if (p->nlevels < 0)
			return -1;
	} else {
		p->nlevels = 6;
		memcpy(p->levels, all_levels, sizeof(all_levels));
	}
	if (o->identities) {
		p->nids = pa_parse_identities(o->identities, p->ids, 4, err, errlen);
		if (p->nids < 0)
			return -1;
	} else {
		p->nids = 4;
		for (int i = 0; i < 4; i++)
			p->ids[i] = &pa_identities[i];
	}
	return 0;
}

/* The cells for cases that are not privilege-sensitive: the plan's where
 * --matrix full, --identity or --paranoid chose them, else root and user
 * at the current level (and user at 2 where that level locks users out). */
static void plain_cells(struct plan_build *b, const struct pa_plan *p,
			const struct pa_opts *o, bool full)
{
	if (full || o->identities) {
		b->nplain_ids = p->nids;
		memcpy(b->plain_ids, p->ids, sizeof(b->plain_ids));
	} else {
		b->nplain_ids = 2;
		b->plain_ids[0] = &pa_identities[0];
		b->plain_ids[1] = &pa_identities[3];
	}
	if (full || o->paranoids) {
		b->nplain_levels = p->nlevels;
		memcpy(b->plain_levels, p->levels, sizeof(b->plain_levels));
	} else {
		b->nplain_levels = 1;
		b->plain_levels[0] = b->cur;
		b->user_at_2 = !full && !o->identities && b->ctx->restricts_all &&
			       b->ctx->uid == 0;
	}
}

/* A runner that is not root and was asked for nothing: narrow the plan to
 * the cell it can run, (me, cur), with a note counting what the default
 * plan would hold as root beyond it: its other cells, and their results. */
static void own_cell_only(struct plan_build *b, struct pa_plan *p,
			  const struct pa_case_info *cases, int ncases)
{
	struct { const struct pa_identity *id; int level; } cell[4 * 8 + 4];
	int cells = 0, results = 0;
	size_t used = strlen(p->notes);

	for (int c = 0; c < ncases; c++) {
		struct case_cells cc = cells_of(b, p, &cases[c]);

		for (int l = 0; l < cc.nl; l++)
			for (int i = 0; i < cc.ni; i++) {
				int x;

				if (cc.iv[i] == b->me && cc.lv[l] == b->cur)
					continue;
				results++;
				for (x = 0; x < cells && (cell[x].id != cc.iv[i] ||
							  cell[x].level != cc.lv[l]); x++)
					;
				if (x == cells) {
					cell[cells].id = cc.iv[i];
					cell[cells++].level = cc.lv[l];
				}
			}
	}
	snprintf(p->notes + used, sizeof(p->notes) - used,
		 "%s# perfabi: not root (uid %u): runs as this user (identity %s) at paranoid %d "
		 "only; the other identities and levels (%d cell%s, %d result%s) need root",
		 used ? "\n" : "", (unsigned)b->ctx->uid, b->me->name, b->cur,
		 cells, cells == 1 ? "" : "s", results, results == 1 ? "" : "s");
	p->nids = b->nplain_ids = 1;
	p->ids[0] = b->plain_ids[0] = b->me;
	p->nlevels = b->nplain_levels = 1;
	p->levels[0] = b->plain_levels[0] = b->cur;
}

/* The header note that says user also runs the plain cases at level 2. */
static void note_user_at_2(struct pa_plan *p, int cur)
{
	size_t used = strlen(p->notes);

	snprintf(p->notes + used, sizeof(p->notes) - used,
		 "%s# perfabi: perf_event_paranoid %d forbids unprivileged users all perf use "
		 "(a distribution patch, as Debian's): user also runs the plain cases at the "
		 "upstream default level 2", used ? "\n" : "", cur);
}

/* Every result of the plan, each case in its cells; a cell a runner that is
 * not root cannot switch to is a skip that says why. */
static int add_all_planned(const struct plan_build *b, struct pa_plan *p,
		    struct pa_case_info *cases, int ncases, char *err, size_t errlen)
{
	const struct pa_context *ctx = b->ctx;

	p->planned = calloc((size_t)ncases * 4 * 8 + 1, sizeof(*p->planned));
	if (!p->planned) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* destructive cases last: a kernel that dies on one loses no others */
	for (int pass = 0; pass < 2; pass++)
	for (int c = 0; c < ncases; c++) {
		if (cases[c].destructive != (pass == 1))
			continue;
		struct case_cells cc = cells_of(b, p, &cases[c]);

		for (int l = 0; l < cc.nl; l++)
			for (int i = 0; i < cc.ni; i++) {
				const char *why = NULL;

				if (ctx->uid != 0 && cc.iv[i] != b->me)
					why = "the runner is not root: cannot switch to this identity";
				else if (ctx->uid != 0 && cc.lv[l] != b->cur)
					why = "the runner is not root: cannot set perf_event_paranoid";
				add_planned(p, &cases[c], cc.iv[i], cc.lv[l], why);
			}
		if (!cases[c].privileged && b->user_at_2)
			add_planned(p, &cases[c], &pa_identities[3], 2, NULL);
	}
	return 0;
}

/* --repeat N: each result N times in a row, under the same name */
static int repeat_planned(struct pa_plan *p, int repeat, char *err, size_t errlen)
{
	struct pa_planned *r = calloc((size_t)p->nplanned * (size_t)repeat, sizeof(*r));

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int j = 0; j < p->nplanned; j++)
		for (int k = 0; k < repeat; k++)
			r[j * repeat + k] = p->planned[j];
	free(p->planned);
	p->planned = r;
	p->nplanned *= repeat;
	return 0;
}

/*
 * The default plan runs each privilege-sensitive case in every cell of
 * identities x levels, and every other case as root and as user at the
 * kernel's current level. Where that level forbids unprivileged users all
 * perf use (Debian's level 3), user would skip nearly everything there:
 * it also runs the plain cases at the upstream default level 2. --matrix full runs everything everywhere;
 * --identity and --paranoid choose the cells. A runner that is not root
 * cannot switch identity or level: by default it plans only the cell it
 * can run (its own identity at the current level) and a header note says
 * what it left out; cells asked for with --identity, --paranoid or
 * --matrix full that are not its own are planned as skips that say why.
 */
int pa_plan_build(struct pa_plan *p, const struct pa_opts *o,
		  const struct pa_context *ctx, struct pa_case_info *cases,
		  int ncases, char *err, size_t errlen)
{
	struct plan_build b = {
		.ctx = ctx,
		.me = pa_identity_current(ctx->uid, ctx->caps),
		.cur = ctx->paranoid,
	};
	bool full = o->matrix && !strcmp(o->matrix, "full");
	/* not root, nothing asked for: only the cell it can run */
	bool own_cell = ctx->uid != 0 && b.me && !full && !o->identities && !o->paranoids;

	p->planned = NULL;
	p->nplanned = 0;
	p->switches = false;
	if (b.cur == INT_MIN) {
		snprintf(err, errlen, "cannot read /proc/sys/kernel/perf_event_paranoid");
		return -1;
	}
	if (plan_cells(p, o, err, errlen))
		return -1;
	plain_cells(&b, p, o, full);
	if (own_cell)
		own_cell_only(&b, p, cases, ncases);
	if (b.user_at_2)
		note_user_at_2(p, b.cur);
	if (add_all_planned(&b, p, cases, ncases, err, errlen))
		return -1;
	if (o->repeat > 1 && p->nplanned)
		return repeat_planned(p, o->repeat, err, errlen);
	return 0;
}

void pa_plan_order(const struct pa_plan *p, bool grouped, int *order)
{
	int seen[16], nseen = 0, n = 0;

	if (!grouped) {
		for (int j = 0; j < p->nplanned; j++)
			order[j] = j;
		return;
	}
	/* levels in the order the plan first reaches them */
	for (int j = 0; j < p->nplanned; j++) {
		int k;

		for (k = 0; k < nseen && seen[k] != p->planned[j].level; k++)
			;
		if (k == nseen && nseen < 16)
			seen[nseen++] = p->planned[j].level;
	}
	/* within a level, identity by identity: the cells of one case (which
	 * plan order puts next to each other) come far apart, so that they
	 * seldom run at once (see the runner's rule in main.c) */
	/* and the .alone ones after the others of their level: each one
	 * waits for all that run to end, so scattered among the others they
	 * would empty the machine hundreds of times */
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < nseen; k++)
			for (int alone = 0; alone < 2; alone++)
				for (int id = 0; id <= 4; id++)
					for (int j = 0; j < p->nplanned; j++) {
						const struct pa_planned *jb = &p->planned[j];
						int jid = jb->id ? (int)(jb->id - pa_identities) : 4;

						if (jb->ci->destructive == (pass == 1) &&
						    jb->level == seen[k] && jb->ci->alone == (alone == 1) &&
						    jid == id)
							order[n++] = j;
					}
}

void pa_plan_json(FILE *f, const struct pa_plan *p)
{
	fprintf(f, "{\"identities\": [");
	for (int i = 0; i < p->nids; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", p->ids[i]->name);
	fprintf(f, "], \"paranoid\": [");
	for (int i = 0; i < p->nlevels; i++)
		fprintf(f, "%s%d", i ? ", " : "", p->levels[i]);
	fprintf(f, "], \"results\": %d}", p->nplanned);
}

void pa_plan_init(struct pa_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->saved_level = PA_NO_LEVEL;
	p->lock_fd = -1;
	p->machine_lock_fd = -1;
}

/* ---- the sysctl, its journal and the lock ---------------------------- */
int pa_paranoid_set(int level)
{
	char v[16];
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	snprintf(v, sizeof(v), "%d\n", level);
	n = write(fd, v, strlen(v));
	close(fd);
	return n == (ssize_t)strlen(v) ? 0 : -1;
}

static void journal_path(const char *dir, char *buf, size_t len)
{
	snprintf(buf, len, "%s/journal", dir);
}

int pa_journal_write(const char *dir, int level)
{
	char path[300], line[64];

	journal_path(dir, path, sizeof(path));
	snprintf(line, sizeof(line), "kernel/perf_event_paranoid\t%d\n", level);
	return pa_write_file_durably(path, line);
}

int pa_journal_replay(const char *dir, int (*set_level)(int))
{
	char path[300], line[128];
	FILE *f;
	int level = PA_NO_LEVEL;

	journal_path(dir, path, sizeof(path));
	f = fopen(path, "re");
	if (!f)
		return PA_NO_LEVEL;
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t');

		if (tab && !strncmp(line, "kernel/perf_event_paranoid", (size_t)(tab - line)))
			level = atoi(tab + 1);
	}
	fclose(f);
	if (level != PA_NO_LEVEL && set_level(level))
		return PA_NO_LEVEL;	/* keep the journal for a later try */
	unlink(path);
	return level;
}

/* The state directory: a directory (not a link) of the runner's uid that
 * no one else may write, or one line in err. */
static int state_dir(char *buf, size_t len, char *err, size_t errlen)
{
	const char *env = getenv("PERFABI_STATE_DIR");
	struct stat st;

	if (env)
		snprintf(buf, len, "%s", env);
	else if (geteuid() == 0 && (mkdir("/run/perfabi", 0755) == 0 || errno == EEXIST))
		snprintf(buf, len, "/run/perfabi");
	else
		snprintf(buf, len, "/tmp/perfabi-%u", (unsigned)geteuid());
	if (mkdir(buf, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create the state directory %s: %s", buf, strerror(errno));
		return -1;
	}
	if (lstat(buf, &st)) {
		snprintf(err, errlen, "cannot stat the state directory %s: %s", buf, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)) {
		snprintf(err, errlen, "refusing the state directory %s: %s (remove it, or name another with PERFABI_STATE_DIR)",
			 buf, !S_ISDIR(st.st_mode) ? "not a directory (a symbolic link?)" :
			 st.st_uid != geteuid() ? "owned by another user" : "writable by others");
		return -1;
	}
	return 0;
}

/* Test hook: behave as on a kernel without CONFIG_FILE_LOCKING. */
static int lock_flock(int fd)
{
	const char *t = getenv("PERFABI_TEST_NO_FLOCK");

	if (t && !strcmp(t, "1"))
		return errno = ENOSYS, -1;
	return flock(fd, LOCK_EX | LOCK_NB);
}

static bool pid_alive(int pid)
{
	return pid > 0 && (!kill(pid, 0) || errno == EPERM);
}

/* Without flock() (a kernel without CONFIG_FILE_LOCKING: ENOSYS): hold
 * path.held, made with O_EXCL and holding our pid; one whose pid is gone
 * was left by a killed run and is replaced. 0, or -1 with the holder's pid
 * in pid (or errno). */
static int take_pid_lock(const char *path, char *held, size_t hlen, char *pid, size_t plen)
{
	snprintf(held, hlen, "%s.held", path);
	for (int tries = 0; tries < 2; tries++) {
		int fd = open(held, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		char mine[32];
		ssize_t n;

		if (fd >= 0) {
			snprintf(mine, sizeof(mine), "%d\n", (int)getpid());
			n = write(fd, mine, strlen(mine));
			close(fd);
			return n == (ssize_t)strlen(mine) ? 0 : -1;
		}
		if (errno != EEXIST)
			return -1;
		fd = open(held, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		n = fd < 0 ? -1 : read(fd, pid, plen - 1);
		if (fd >= 0)
			close(fd);
		pid[n > 0 ? n : 0] = 0;
		pid[strcspn(pid, "\n")] = 0;
		if (pid_alive(atoi(pid)))
			return -1;
		unlink(held);	/* a killed run's: take it over */
	}
	return -1;
}

/* Lock path exclusively, without waiting: the fd with this pid written
 * into it, or -1 with one line in err (another run holds it, or the name
 * is not a plain file of ours: planted by someone else). Where flock() is
 * missing, *held names the pid lock file to remove at the end. */
static int take_lock(const char *path, char *held, size_t hlen, char *note, size_t nlen,
		     char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	char pid[32] = "";
	struct stat st;

	if (fd < 0) {
		snprintf(err, errlen, "cannot open the lock %s: %s%s", path, strerror(errno),
			 errno == ELOOP ? " (a symbolic link: refusing it; remove it if it is not yours)" : "");
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		snprintf(err, errlen, "refusing the lock %s: not a plain file of uid %u with one link (remove it if it is not yours)",
			 path, (unsigned)geteuid());
		close(fd);
		return -1;
	}
	held[0] = 0;
	if (!lock_flock(fd)) {
		if (ftruncate(fd, 0) == 0) {
			snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
			if (pwrite(fd, pid, strlen(pid), 0) < 0)
				{ /* the pid is only informative */ }
		}
		return fd;
	}
	if (errno == ENOSYS) {
		size_t used = strlen(note);

		if (!take_pid_lock(path, held, hlen, pid, sizeof(pid))) {
			snprintf(note + used, nlen - used, "%s# perfabi: flock() is missing (ENOSYS: a kernel without CONFIG_FILE_LOCKING): %s locks the run instead",
				 used ? "\n" : "", held);
			return fd;
		}
		held[0] = 0;
		if (!pid[0]) {
			snprintf(err, errlen, "flock() is missing (ENOSYS) and the lock %s.held cannot be made: %s",
				 path, strerror(errno));
			close(fd);
			return -1;
		}
	} else {
		ssize_t n = pread(fd, pid, sizeof(pid) - 1, 0);

		pid[n > 0 ? n : 0] = 0;
		pid[strcspn(pid, "\n")] = 0;
	}
	close(fd);
	snprintf(err, errlen, "another perfabi run holds %s%s%s%s: perf_event_paranoid is global, so runs cannot overlap",
		 path, pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "");
	return -1;
}

static void release_locks(struct pa_plan *p)
{
	for (int k = 0; k < 2; k++) {
		int *fd = k ? &p->machine_lock_fd : &p->lock_fd;

		if (p->lock_held[k][0])
			unlink(p->lock_held[k]);
		p->lock_held[k][0] = 0;
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
}

int pa_matrix_begin(struct pa_plan *p, char *err, size_t errlen)
{
	char lock[300];
	int replayed;

	if (state_dir(p->state_dir, sizeof(p->state_dir), err, errlen))
		return -1;
	snprintf(lock, sizeof(lock), "%s/lock", p->state_dir);
	p->lock_fd = take_lock(lock, p->lock_held[0], sizeof(p->lock_held[0]),
			       p->notes, sizeof(p->notes), err, errlen);
	if (p->lock_fd < 0)
		return -1;
	if (geteuid() == 0) {
		/* two state directories (two checkouts, a CI clone beside a
		 * developer's tree) must not both change the global sysctls */
		const char *ml = getenv("PERFABI_MACHINE_LOCK");

		if (!ml)
			ml = access("/run", W_OK) ? "/tmp/perfabi.lock" : "/run/perfabi.lock";
		p->machine_lock_fd = take_lock(ml, p->lock_held[1], sizeof(p->lock_held[1]),
					       p->notes, sizeof(p->notes), err, errlen);
		if (p->machine_lock_fd < 0) {
			release_locks(p);
			return -1;
		}
	}
	replayed = pa_journal_replay(p->state_dir, pa_paranoid_set);
	if (replayed != PA_NO_LEVEL) {
		size_t used = strlen(p->notes);

		snprintf(p->notes + used, sizeof(p->notes) - used,
			 "%s# perfabi: an earlier run was killed while perf_event_paranoid was changed; restored it to %d from %s/journal",
			 used ? "\n" : "", replayed, p->state_dir);
	}
	if (geteuid() == 0) {
		char more[700];
		size_t used = strlen(p->notes);

		int left = pa_sysctls_restore("/proc/sys", p->state_dir, more, sizeof(more));

		if (left && more[0])
			snprintf(p->notes + used, sizeof(p->notes) - used, "%s%s (left by an earlier run that was killed)",
				 used ? "\n" : "", more);
		/* a leftover that could not be put back keeps its file */
		p->sysctls_saved = left >= 0 && !pa_sysctls_save("/proc/sys", p->state_dir);
	}
	return 0;
}

int pa_planned_enter(struct pa_plan *p, const struct pa_planned *pr, char *err, size_t errlen)
{
	int cur = pa_paranoid();

	if (pr->level == PA_NO_LEVEL || pr->level == cur)
		return 0;
	if (p->saved_level == PA_NO_LEVEL) {
		if (pa_journal_write(p->state_dir, cur)) {
			snprintf(err, errlen, "cannot write the journal in %s: %s",
				 p->state_dir, strerror(errno));
			return -1;
		}
		p->saved_level = cur;
	}
	if (pa_paranoid_set(pr->level)) {
		snprintf(err, errlen, "cannot set perf_event_paranoid to %d: %s",
			 pr->level, strerror(errno));
		return -1;
	}
	return 0;
}

int pa_planned_setup(void *arg)
{
	const struct pa_planned *pr = arg;

	if (!pr->id || (pr->id->uid == 0 && geteuid() == 0))
		return 0;
	if (geteuid() != 0)
		return 0;	/* planned only when it is the runner's own */
	if (pa_identity_become(pr->id))
		return -1;
	/* the runner's directory (a checkout in /root) may be closed to it */
	if (access(".", X_OK) && chdir("/"))
		return -1;
	return 0;
}

void pa_matrix_end(struct pa_plan *p)
{
	if (p->saved_level != PA_NO_LEVEL) {
		char path[300];

		if (pa_paranoid_set(p->saved_level) == 0) {
			journal_path(p->state_dir, path, sizeof(path));
			unlink(path);
		} else {
			fprintf(stderr, "perfabi-run: could not restore perf_event_paranoid to %d; the journal in %s keeps it for the next run\n",
				p->saved_level, p->state_dir);
		}
		p->saved_level = PA_NO_LEVEL;
	}
	p->notes[0] = 0;
	if (p->sysctls_saved) {
		if (pa_sysctls_restore("/proc/sys", p->state_dir, p->notes, sizeof(p->notes)) < 0)
			fprintf(stderr, "perfabi-run: could not restore every perf sysctl; %s/sysctls keeps them for the next run\n",
				p->state_dir);
		p->sysctls_saved = false;
	}
	release_locks(p);
}

void pa_matrix_totals(FILE *f, const struct pa_plan *p, const struct pa_result *r, int n)
{
	struct { char cell[64]; struct pa_counts c; } cells[64];
	int ncells = 0;

	(void)p;
	for (int k = 0; k < n; k++) {
		const char *at = strchr(r[k].name, '@');
		int i;

		if (!at)
			continue;
		for (i = 0; i < ncells; i++)
			if (!strcmp(cells[i].cell, at + 1))
				break;
		if (i == ncells) {
			if (ncells == 64)
				continue;
			memset(&cells[i], 0, sizeof(cells[i]));
			snprintf(cells[i].cell, sizeof(cells[i].cell), "%s", at + 1);
			ncells++;
		}
		pa_count(&cells[i].c, r[k].outcome);
	}
	for (int i = 0; i < ncells; i++)
		fprintf(f, "# %-26s %4d pass %4d fail %4d skip %3d xfail %3d xpass\n",
			cells[i].cell, cells[i].c.n[PA_PASS], cells[i].c.n[PA_FAIL],
			cells[i].c.n[PA_SKIP], cells[i].c.n[PA_XFAIL], cells[i].c.n[PA_XPASS]);
}
