// SPDX-License-Identifier: GPL-2.0
/* The perf_event cgroup hierarchy, and fresh cgroups for the cgroup cases. */
#include "perfabi.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>

/* ---- the perf_event cgroup hierarchy ----------------------------------- */

bool pa_perf_cgroup(char *root, size_t rlen, char *own, size_t olen)
{
	char line[4096], mnt[2048], fstype[64], opts[1024], v2root[2048] = "";
	char v1root[2048] = "", path[2048] = "", v2path[2048] = "";
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		/* id parent maj:min root mountpoint opts ... - fstype src superopts */
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %2047s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s %*s %1023s", fstype, opts) != 2)
			continue;
		if (!strcmp(fstype, "cgroup2") && !v2root[0])
			snprintf(v2root, sizeof(v2root), "%s", mnt);
		if (!strcmp(fstype, "cgroup")) {
			for (char *o = strtok(opts, ","); o; o = strtok(NULL, ","))
				if (!strcmp(o, "perf_event"))
					snprintf(v1root, sizeof(v1root), "%s", mnt);
		}
	}
	fclose(f);
	f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			continue;
		line[strcspn(line, "\n")] = 0;
		*c2 = 0;
		if (!strcmp(c1 + 1, ""))
			snprintf(v2path, sizeof(v2path), "%s", c2 + 1);
		for (char *o = strtok(c1 + 1, ","); o; o = strtok(NULL, ","))
			if (!strcmp(o, "perf_event"))
				snprintf(path, sizeof(path), "%s", c2 + 1);
	}
	fclose(f);
	if (v1root[0] && path[0]) {
		snprintf(root, rlen, "%s", v1root);
		snprintf(own, olen, "%s%s", v1root, strcmp(path, "/") ? path : "");
		return true;
	}
	if (v2root[0] && v2path[0]) {
		snprintf(root, rlen, "%s", v2root);
		snprintf(own, olen, "%s%s", v2root, strcmp(v2path, "/") ? v2path : "");
		return true;
	}
	return false;
}

/* Remove the empty cgroups "<prefix>*" a killed earlier run left (rmdir
 * fails on a cgroup still in use, so a concurrent run is not disturbed). */
static void remove_leftovers(const char *root, const char *prefix)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char p[4200];

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix))) {
			snprintf(p, sizeof(p), "%s/%s", root, e->d_name);
			rmdir(p);
		}
	if (d)
		closedir(d);
}

/* Whether the mount at dir is a cgroup2 hierarchy. */
static bool is_cgroup2(const char *dir)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[4096], mnt[2048], fstype[64];
	bool v2 = false;

	while (f && fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - ");

		if (dash && sscanf(line, "%*s %*s %*s %*s %2047s", mnt) == 1 &&
		    sscanf(dash + 3, "%63s", fstype) == 1 && !strcmp(mnt, dir))
			v2 = !strcmp(fstype, "cgroup2");
	}
	if (f)
		fclose(f);
	return v2;
}

static void undo(struct pa_cgroup *cg)
{
	if (cg->dir[0])
		for (int i = 0; i < 100 && rmdir(cg->dir) && errno == EBUSY; i++)
			usleep(10000);
	cg->dir[0] = 0;
	if (cg->tmp[0]) {
		umount2(cg->tmp, MNT_DETACH);
		rmdir(cg->tmp);
		cg->tmp[0] = 0;
	}
}

/* What pa_cgroup_new() made, undone at exit if the body ends before
 * pa_cgroup_remove() (a failed assertion or a skip exits the body). */
static struct pa_cgroup live;
static pid_t live_owner;

static void undo_at_exit(void)
{
	if (live_owner == getpid())
		undo(&live);
}

void pa_cgroup_remove(struct pa_cgroup *cg)
{
	undo(cg);
	memset(&live, 0, sizeof(live));
}

/* Whether the kernel gave the new cgroup perf_event state: a cgroup event
 * on it opens. On the cgroup2 hierarchy a child gets the implicit
 * perf_event controller only once its parent's subtree mask was computed,
 * which happens when a controller is enabled or disabled in the parent's
 * cgroup.subtree_control (kernel/cgroup/cgroup.c
 * cgroup_calc_subtree_ss_mask()); a kernel with no other controller, or a
 * root nobody ever wrote, gives ENOENT. That is the kernel's design, not a
 * failure: SKIP with the reason. Any other refusal fails the case. */
static void check_perf_state(struct pa_cgroup *cg)
{
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	char ctl[2300], parent[2200], line[512] = "";
	int dfd, fd, cpu, err;
	FILE *f;

	if (pa_allowed_cpus(&cpu, 1) != 1) {
		undo(cg);
		pa_fail("no CPU in this task's affinity mask");
		pa_abort();
	}
	dfd = open(cg->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		err = errno;
		undo(cg);
		pa_fail("open(%s): %s", cg->dir, pa_errno_name(err));
		pa_abort();
	}
	fd = pa_perf_open(&attr, dfd, cpu, -1, PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	err = errno;
	close(dfd);
	if (fd >= 0) {
		close(fd);
		return;
	}
	if (err == ENOENT && cg->v2) {
		snprintf(parent, sizeof(parent), "%s", cg->dir);
		*strrchr(parent, '/') = 0;
		snprintf(ctl, sizeof(ctl), "%s/cgroup.subtree_control", parent);
		f = fopen(ctl, "r");
		if (f) {
			if (!fgets(line, sizeof(line), f))
				line[0] = 0;
			fclose(f);
		}
		line[strcspn(line, "\n")] = 0;
		if (!line[0]) {
			undo(cg);
			pa_skip("a new cgroup has no perf_event state: on cgroup2 a child gets "
				"the implicit perf_event controller only after a controller was "
				"enabled in its parent's cgroup.subtree_control, and %s is empty "
				"(a kernel with no other cgroup controller)", ctl);
		}
	}
	undo(cg);
	pa_fail("a cgroup event on the new cgroup %s: %s (parent's subtree_control '%s')",
		cg->dir, pa_errno_name(err), line);
	pa_abort();
}

void pa_cgroup_new(struct pa_cgroup *cg, const char *prefix, bool mount_if_missing)
{
	char own[2048];
	int err;

	memset(cg, 0, sizeof(*cg));
	if (!pa_perf_cgroup(cg->root, sizeof(cg->root), own, sizeof(own))) {
		if (!mount_if_missing)
			pa_skip("no cgroup hierarchy with the perf_event controller is mounted");
		snprintf(cg->tmp, sizeof(cg->tmp), "/tmp/pa-cgroup2-XXXXXX");
		if (!mkdtemp(cg->tmp)) {
			cg->tmp[0] = 0;
			pa_skip("no perf_event cgroup hierarchy, and mkdtemp failed: %s",
				pa_errno_name(errno));
		}
		if (mount("cgroup2", cg->tmp, "cgroup2", 0, NULL)) {
			err = errno;
			rmdir(cg->tmp);
			cg->tmp[0] = 0;
			pa_skip("no perf_event cgroup hierarchy, and mounting cgroup2 failed: %s",
				pa_errno_name(err));
		}
		snprintf(cg->root, sizeof(cg->root), "%s", cg->tmp);
	}
	cg->v2 = is_cgroup2(cg->root);
	remove_leftovers(cg->root, prefix);
	snprintf(cg->name, sizeof(cg->name), "/%s%d", prefix, (int)getpid());
	snprintf(cg->dir, sizeof(cg->dir), "%s%s", cg->root, cg->name);
	if (mkdir(cg->dir, 0755)) {
		err = errno;
		cg->dir[0] = 0;
		undo(cg);
		pa_skip("cannot create a cgroup in %s: %s", cg->root, pa_errno_name(err));
	}
	check_perf_state(cg);
	if (!live_owner)
		atexit(undo_at_exit);
	live = *cg;
	live_owner = getpid();
}

int pa_cgroup_enter(const struct pa_cgroup *cg, pid_t pid)
{
	char path[2300], buf[24];
	int fd, n, ok;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg->dir);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = snprintf(buf, sizeof(buf), "%d\n", (int)pid);
	ok = write(fd, buf, (size_t)n) == n;
	close(fd);
	return ok ? 0 : -1;
}
