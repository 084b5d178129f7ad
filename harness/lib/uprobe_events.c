// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe trace events made through tracefs uprobe_events, removed again on
 * every exit path, and file offsets in this executable (of a function, of
 * an address).
 */
#include "perfabi.h"

#include <fcntl.h>
#include <sys/stat.h>

#define MAX_GROUPS 4

static char groups[MAX_GROUPS][64];
static int ngroups;

static int put(const char *path, const char *s, bool append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	ssize_t n;
	int e;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	e = errno;
	close(fd);
	if (n == (ssize_t)strlen(s))
		return 0;
	errno = n < 0 ? e : EIO;
	return -1;
}

void pa_uprobe_events_remove(const char *group)
{
	const char *t = pa_tracefs();
	char path[512], line[1024], name[256], cmd[600], fmt[96];

	if (!t)
		return;
	snprintf(fmt, sizeof(fmt), "%%*[pr]:%s/%%255s", group);
	snprintf(path, sizeof(path), "%s/uprobe_events", t);
	for (int round = 0; round < 64; round++) {
		bool found = false;
		FILE *f = fopen(path, "re");

		if (!f)
			return;
		while (!found && fgets(line, sizeof(line), f))
			found = sscanf(line, fmt, name) == 1;
		fclose(f);
		if (!found)
			return;
		/* an event ftrace has enabled cannot be deleted */
		snprintf(cmd, sizeof(cmd), "%s/events/%s/%s/enable", t, group, name);
		(void)put(cmd, "0", false);
		snprintf(cmd, sizeof(cmd), "-:%s/%s\n", group, name);
		if (put(path, cmd, true))
			return;
	}
}

static void remove_all(void)
{
	for (int i = 0; i < ngroups; i++)
		pa_uprobe_events_remove(groups[i]);
}

int pa_uprobe_event_add(const char *group, char kind, const char *path,
			long offset, char *name, size_t len)
{
	const char *t = pa_tracefs();
	char events[512], cmd[4400];
	int i;

	if (!t)
		pa_skip("tracefs is not mounted");
	snprintf(events, sizeof(events), "%s/uprobe_events", t);
	if (access(events, W_OK))
		pa_skip("no writable %s (CONFIG_UPROBE_EVENTS)", events);
	ASSERT_TRUE(kind == 'p' || kind == 'r');
	ASSERT_LT(strlen(group), sizeof(groups[0]));
	for (i = 0; i < ngroups && strcmp(groups[i], group); i++)
		;
	if (i == ngroups) {
		ASSERT_LT(ngroups, MAX_GROUPS);
		snprintf(groups[ngroups++], sizeof(groups[0]), "%s", group);
		if (ngroups == 1)
			atexit(remove_all);
	}
	pa_uprobe_events_remove(group);
	snprintf(name, len, "u%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "%c:%s/%s %s:0x%lx\n", kind, group, name, path, offset);
	return put(events, cmd, true);
}

long pa_self_sym_offset(const char *name)
{
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, name) : -1;

	if (off < 0)
		pa_skip("cannot find %s in %s", name, exe ? exe : "/proc/self/exe");
	return off;
}

long pa_self_file_offset(const void *addr, char perm[5])
{
	unsigned long long start, end, pgoff, ino;
	char line[4600], path[4097], p[5] = "";
	struct stat st;
	long r = -1;
	FILE *f;

	if (stat("/proc/self/exe", &st))
		return -1;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		path[0] = 0;
		if (sscanf(line, "%llx-%llx %4s %llx %*s %llu %4096s",
			   &start, &end, p, &pgoff, &ino, path) < 5)
			continue;
		if ((uintptr_t)addr < start || (uintptr_t)addr >= end)
			continue;
		if (ino == (unsigned long long)st.st_ino && path[0] == '/')
			r = (long)(pgoff + ((uintptr_t)addr - start));
		if (perm)
			memcpy(perm, p, sizeof(p));
		break;
	}
	fclose(f);
	return r;
}
