// SPDX-License-Identifier: GPL-2.0
/*
 * Filesystems the cases need that the host has not mounted (tracefs): the
 * runner mounts them in a private mount namespace of its own, so the cases
 * see them and the host's mount table is never touched. Nothing to restore:
 * the namespace goes away with the runner and its children, SIGKILL too.
 */
#include "runner.h"

#include <dirent.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>

static const char tracing[] = "/sys/kernel/tracing";

int pa_private_mounts(char *note, size_t len)
{
	if (pa_tracefs() || geteuid() != 0)
		return 0;
	if (access(tracing, F_OK))
		return 0;	/* kernel without tracefs: cases skip */
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		snprintf(note, len, "# tracefs is not mounted and no private mount namespace could be made (%s): tracepoint cases will skip",
			strerror(errno));
		return -1;
	}
	if (mount("tracefs", tracing, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL)) {
		snprintf(note, len, "# tracefs is not mounted and mounting it at %s failed (%s): tracepoint cases will skip",
			tracing, strerror(errno));
		return -1;
	}
	snprintf(note, len, "# tracefs was not mounted: mounted at %s in the runner's private mount namespace (the host's mounts are untouched)",
		tracing);
	return 1;
}

/*
 * tracefs is root-only by default, so a case running as an unprivileged
 * identity cannot read a tracepoint's id, and the tracepoint permission
 * rules could never be checked unprivileged. The runner (root) lists every
 * id once, in a world-readable file named by $PERFABI_TRACEPOINT_IDS, before
 * any identity switch; the library falls back to it. The file lives in the
 * run's private directory (runner/private.c) and goes with it at exit.
 */
int pa_tracepoint_ids_export(void)
{
	const char *t = pa_tracefs();
	char path[PATH_MAX], buf[32], ids_file[256];
	const char *dir;
	DIR *d, *sd;
	struct dirent *s, *e;
	FILE *out, *f;
	int n = 0, fd;

	if (!t || geteuid() != 0)
		return 0;
	/* in the run's private directory (mkdtemp, removed at exit): no fixed
	 * name in a shared directory that another user could plant */
	dir = pa_run_private();
	if (!dir)
		return -1;
	fd = pa_create_private_file(dir, "tracepoint-ids", ids_file, sizeof(ids_file));
	out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/events", t);
	d = opendir(path);
	while (d && (s = readdir(d))) {
		if (s->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", t, s->d_name);
		sd = opendir(path);
		while (sd && (e = readdir(sd))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", t, s->d_name, e->d_name);
			f = fopen(path, "re");
			if (f && fgets(buf, sizeof(buf), f)) {
				fprintf(out, "%s %s %ld\n", s->d_name, e->d_name, strtol(buf, NULL, 10));
				n++;
			}
			if (f)
				fclose(f);
		}
		if (sd)
			closedir(sd);
	}
	if (d)
		closedir(d);
	if (fclose(out)) {
		unlink(ids_file);
		return -1;
	}
	setenv("PERFABI_TRACEPOINT_IDS", ids_file, 1);
	return n;
}
