// SPDX-License-Identifier: GPL-2.0
/*
 * The run's own places outside the tree, made so that no other local user
 * can steer what root writes or runs:
 *
 *  - one private directory per run, <base>/perfabi.<pid>.XXXXXX made by
 *    mkdtemp() (base /run, or /tmp where /run is not writable), searchable
 *    by the unprivileged identities; it holds the tracepoint id list, the
 *    FIFO the cases name their tracepoints in (runner/tpkeep.c) and the
 *    mount point of a staged tree. Removed at exit; one left by a run
 *    killed with SIGKILL is removed by the next run (its pid is gone).
 *  - a staged tree: where the unprivileged identities (uid 65534) cannot
 *    reach the case binaries (a checkout in /root, an install under a
 *    mktemp -d directory: a 0700 directory above them), the runner
 *    bind-mounts the cases and fixtures inside its private mount namespace
 *    under the private directory and runs them from there. Nothing is
 *    copied; the host's mount table is untouched.
 */
#include "runner.h"
#include "matrix.h"

#include <dirent.h>
#include <fcntl.h>
#include <libgen.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char private_dir[128];
static char private_tree[160];
static pid_t private_owner;

static void private_remove(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/tree/fixtures", dir);
	umount2(path, MNT_DETACH);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/tree/cases", dir);
	umount2(path, MNT_DETACH);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/tree", dir);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/tracepoint-ids", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/tracepoint-keep", dir);
	unlink(path);
	rmdir(dir);
}

static void private_cleanup(void)
{
	if (private_dir[0] && getpid() == private_owner)
		private_remove(private_dir);
}

/* perfabi.<pid>.XXXXXX of ours whose run is gone (killed by SIGKILL) */
static void remove_stale(const char *base)
{
	DIR *d = opendir(base);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[256];
		struct stat st;
		int pid;

		if (sscanf(e->d_name, "perfabi.%d.", &pid) != 1 || pid <= 0 ||
		    pid == getpid() || !kill(pid, 0) || errno == EPERM)
			continue;	/* not ours, or its run is alive */
		snprintf(path, sizeof(path), "%s/%s", base, e->d_name);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		private_remove(path);
	}
	if (d)
		closedir(d);
}

const char *pa_run_private(void)
{
	const char *base;

	if (private_dir[0])
		return private_dir;
	base = access("/run", W_OK) ? "/tmp" : "/run";
	remove_stale(base);
	snprintf(private_dir, sizeof(private_dir), "%s/perfabi.%d.XXXXXX", base, (int)getpid());
	if (!mkdtemp(private_dir) || chmod(private_dir, 0755)) {
		if (private_dir[0] && !strstr(private_dir, "XXXXXX"))
			rmdir(private_dir);
		private_dir[0] = 0;
		return NULL;
	}
	private_owner = getpid();
	atexit(private_cleanup);
	return private_dir;
}

int pa_create_private_file(const char *dir, const char *name, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	return open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
}

/* Can uid 65534 (the unprivileged identities) execute the binary and
 * search the fixtures directory? Asked in a child that becomes `user`. */
static bool unpriv_reaches(const char *binary, const char *fixtures)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return false;
	if (pid == 0) {
		if (pa_identity_become(pa_identity_find("user")))
			_exit(1);
		_exit(access(binary, X_OK) || (fixtures && access(fixtures, X_OK)) ? 1 : 0);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int bind_at(const char *src, const char *dst)
{
	if (mkdir(dst, 0755) && errno != EEXIST)
		return -1;
	return mount(src, dst, NULL, MS_BIND, NULL);
}

int pa_stage_cases(const struct pa_plan *p, const char *cdir, char *note, size_t nlen,
		   char *err, size_t elen)
{
	struct pa_case_info *first = NULL;
	char fixtures[PATH_MAX], parent[PATH_MAX], cases[200], fix[200];
	const char *dir;
	bool have_fix;
	size_t clen = strlen(cdir);

	if (geteuid() != 0)
		return 0;	/* runs only as itself: the tree is its own */
	for (int j = 0; j < p->nplanned && !first; j++)
		if (p->planned[j].id && p->planned[j].id->uid != 0 && !p->planned[j].skip_reason[0])
			first = p->planned[j].ci;
	if (!first)
		return 0;	/* nothing runs unprivileged */
	snprintf(parent, sizeof(parent), "%s", cdir);
	snprintf(fixtures, sizeof(fixtures), "%s/fixtures", dirname(parent));
	have_fix = !access(fixtures, F_OK);
	if (unpriv_reaches(first->path, have_fix ? fixtures : NULL))
		return 0;
	dir = pa_run_private();
	if (!dir) {
		snprintf(err, elen, "uid 65534 cannot reach the cases in %s, and no private directory could be made in /run or /tmp to stage them: %s",
			 cdir, strerror(errno));
		return -1;
	}
	snprintf(private_tree, sizeof(private_tree), "%s/tree", dir);
	snprintf(cases, sizeof(cases), "%s/cases", private_tree);
	snprintf(fix, sizeof(fix), "%s/fixtures", private_tree);
	/* a second namespace when pa_private_mounts() made one: harmless */
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mkdir(private_tree, 0755) || bind_at(cdir, cases) ||
	    (have_fix && bind_at(fixtures, fix))) {
		snprintf(err, elen, "uid 65534 cannot reach the cases in %s (a directory above them is not searchable by others) and they could not be bind-mounted where it can (%s): move the tree or install it elsewhere (make install INSTALL_PATH=DIR), or run --identity root",
			 cdir, strerror(errno));
		return -1;
	}
	for (int i = 0; p->planned && i < p->nplanned; i++) {
		struct pa_case_info *ci = p->planned[i].ci;
		char moved[sizeof(ci->path)];

		if (strncmp(ci->path, cdir, clen) || ci->path[clen] != '/')
			continue;	/* done already (a case planned twice) */
		snprintf(moved, sizeof(moved), "%s%s", cases, ci->path + clen);
		snprintf(ci->path, sizeof(ci->path), "%s", moved);
	}
	if (!unpriv_reaches(first->path, have_fix ? fix : NULL)) {
		snprintf(err, elen, "uid 65534 cannot run %s even from a bind mount: the binaries' own modes do not let others read and execute them",
			 first->path);
		return -1;
	}
	snprintf(note, nlen, "# perfabi: uid 65534 cannot reach %s (a directory above it is not searchable by others): the cases run from a bind mount at %s in the runner's private mount namespace",
		 cdir, private_tree);
	return 1;
}
