// SPDX-License-Identifier: GPL-2.0
/*
 * Who else may hold perf events, and how long the CPUs idled: what the
 * environment says, for the cases that must tell a SKIP (the environment
 * explains the value seen) from a FAIL (it does not). See perfabi.h.
 */
#include "internal.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/stat.h>

#define PROC_PID_INIT_INO 0xEFFFFFFCu	/* the initial pid namespace */
#define PF_EXITING 0x00000004u		/* include/linux/sched.h */
#define PF_KTHREAD 0x00200000u

/* Append one sentence fragment to who ("; " between). */
static void add(char *who, size_t len, const char *fmt, ...)
{
	size_t n = strlen(who);
	va_list ap;

	if (n + 3 >= len)
		return;
	if (n)
		n += (size_t)snprintf(who + n, len - n, "; ");
	va_start(ap, fmt);
	vsnprintf(who + n, len - n, fmt, ap);
	va_end(ap);
}

/* /proc/<pid>/stat: ppid, state and flags; false when it is gone. */
static bool proc_stat(long pid, long *ppid, char *state, unsigned long *flags)
{
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* comm may hold spaces and parentheses: fields follow the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return false;
	/* state ppid pgrp session tty_nr tpgid flags */
	return sscanf(p + 1, " %c %ld %*d %*d %*d %*d %lu", state, ppid, flags) == 3;
}

/* The runner that keeps tracepoints registered ($PERFABI_TRACEPOINT_KEEPER,
 * runner/tpkeep.c): it holds disabled tracepoint events only, which take
 * no breakpoint slot and no PMU counter, so it explains nothing. */
static bool keeper(long pid)
{
	const char *k = getenv("PERFABI_TRACEPOINT_KEEPER");

	return k && strtol(k, NULL, 10) == pid;
}

/* Is pid this body or one of its descendants (the walk up its ppids meets
 * this process), the supervisor (case_main.c) that forked the body, or the
 * runner keeping tracepoints? */
static bool ours(long pid)
{
	long self = (long)getpid(), p = pid, ppid;
	unsigned long flags;
	char state;

	if (pid == self || pid == (long)getppid() || keeper(pid))
		return true;
	for (int depth = 0; depth < 64 && p > 1; depth++) {
		if (!proc_stat(p, &ppid, &state, &flags))
			return false;
		if (ppid == self)
			return true;
		p = ppid;
	}
	return false;
}

static void comm_of(long pid, char *comm, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if (pa_sysctl_read(path, comm, len))
		snprintf(comm, len, "?");
}

/* Does the task at dir ("/proc/<pid>" or "/proc/<pid>/task/<tid>") hold
 * a perf event: an fd, or a mapping of one's ring (which keeps the event
 * after its fd is closed)? 1 yes, 0 no, 3 no but it shows no fds at all
 * (an exiting task past exit_files(), whose files are released later, in
 * exit_task_work()), -errno when its fds cannot be read (gone: -ENOENT).
 * An exiting task between exit_mm() and exit_files() shows its fds but no
 * mappings: an event only its ring mapping kept is missed there, a window
 * of microseconds, where counting every exiting task as a holder would
 * SKIP one scan in ten on a busy build machine. */
static int holds_perf_at(const char *dir)
{
	char path[96], link[128], target[128], line[512];
	int nfds = 0, nmaps = 0;
	struct dirent *d;
	bool found = false;
	DIR *fds;
	FILE *f;

	snprintf(path, sizeof(path), "%s/fd", dir);
	fds = opendir(path);
	if (!fds)
		return -errno;
	while (!found && (d = readdir(fds))) {
		ssize_t n;

		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		nfds++;
		snprintf(link, sizeof(link), "%s/%.16s", path, d->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n < 0)
			continue;	/* closed meanwhile */
		target[n] = 0;
		found = !strcmp(target, "anon_inode:[perf_event]");
	}
	closedir(fds);
	if (found)
		return 1;
	snprintf(path, sizeof(path), "%s/maps", dir);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ENOENT : 0;	/* the fds were read */
	while (!found && fgets(line, sizeof(line), f)) {
		nmaps++;
		found = strstr(line, "[perf_event]") != NULL;
	}
	fclose(f);
	return found ? 1 : nfds ? 0 : 3;
}

/* holds_perf_at() for process pid. A leader that has exited shows no fds
 * or mappings while its other threads run on: ask those. */
static int holds_perf(long pid, char state)
{
	char path[64], task[96];
	struct dirent *d;
	int h, r = 0;
	DIR *tasks;

	snprintf(path, sizeof(path), "/proc/%ld", pid);
	h = holds_perf_at(path);
	if (h == 1 || h < 0 || state != 'Z')
		return h;
	snprintf(path, sizeof(path), "/proc/%ld/task", pid);
	tasks = opendir(path);
	if (!tasks)
		return 0;
	while (r <= 0 && (d = readdir(tasks))) {
		if (!isdigit((unsigned char)d->d_name[0]) || atol(d->d_name) == pid)
			continue;
		snprintf(task, sizeof(task), "%s/%.16s", path, d->d_name);
		h = holds_perf_at(task);
		if (h == 1 || (h < 0 && h != -ENOENT))
			r = h;
	}
	closedir(tasks);
	return r;
}

bool pa_perf_held_elsewhere(char *who, size_t len)
{
	char buf[256];
	int shown = 0, more = 0;
	struct dirent *d;
	struct stat st;
	DIR *proc;

	who[0] = 0;
	/* kernel users no /proc scan sees */
	if (!pa_sysctl_read("/sys/module/kgdboc/parameters/kgdboc", buf, sizeof(buf)) && buf[0])
		add(who, len, "kgdb is registered (kgdboc=%s): the debugger may hold wide breakpoints, which no process shows", buf);
	if (!stat("/sys/module/data_breakpoint", &st))
		add(who, len, "the data_breakpoint module (samples/hw_breakpoint) is loaded: it holds a wide breakpoint");
	if (geteuid() != 0) {
		add(who, len, "not root: the fds of other users' processes cannot be read");
		return true;
	}
	/* without pid namespaces everything is in the initial one */
	if (!stat("/proc/self/ns/pid", &st) && st.st_ino != PROC_PID_INIT_INO) {
		add(who, len, "not in the initial pid namespace: processes outside it are not in /proc");
		return true;
	}
	proc = opendir("/proc");
	if (!proc) {
		add(who, len, "/proc cannot be read (%s)", pa_errno_name(errno));
		return true;
	}
	while ((d = readdir(proc))) {
		char comm[32], state;
		unsigned long flags;
		long pid, ppid;
		char *end;
		int h;

		pid = strtol(d->d_name, &end, 10);
		if (end == d->d_name || *end || pid <= 0 || ours(pid))
			continue;
		if (!proc_stat(pid, &ppid, &state, &flags) || (flags & PF_KTHREAD))
			continue;	/* gone, or a kernel thread: no fds */
		h = holds_perf(pid, state);
		/* a process on its way out, past releasing its fd table, may
		 * be releasing perf events no longer shown */
		if (h == 3)
			h = (flags & PF_EXITING) && state != 'Z' && state != 'X' ? 2 : 0;
		if (h == -ENOENT || h == 0)
			continue;
		if (shown >= 6) {
			more++;
			continue;
		}
		comm_of(pid, comm, sizeof(comm));
		if (h == 1)
			add(who, len, "pid %ld (%s) holds a perf event", pid, comm);
		else if (h == 2)
			add(who, len, "pid %ld (%s) is exiting, its files on their way out", pid, comm);
		else
			add(who, len, "the fds of pid %ld (%s) cannot be read (%s)", pid, comm,
			    pa_errno_name(-h));
		shown++;
	}
	closedir(proc);
	if (more)
		add(who, len, "%d more such processes", more);
	return who[0] != 0;
}

void pa_bp_enospc(const char *fmt, ...)
{
	char what[512], who[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (pa_perf_held_elsewhere(who, sizeof(who)))
		pa_skip("%s: breakpoints held outside this case may take the slots (%s)", what, who);
	pa_fail("%s, yet no other process holds a perf event and no kernel user of breakpoints is registered: breakpoint slots leaked (a closed breakpoint still counted) or are miscounted",
		what);
	pa_abort();
}

long long pa_cpu_idle_ms(int cpu)
{
	char line[512], name[16];
	long tck = sysconf(_SC_CLK_TCK);
	unsigned long long v[5];
	long long ms = -1;
	FILE *f;

	if (tck <= 0)
		return -1;
	f = fopen("/proc/stat", "re");
	if (!f)
		return -1;
	snprintf(name, sizeof(name), "cpu%d", cpu);
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(name);

		if (strncmp(line, name, n) || line[n] != ' ')
			continue;
		/* user nice system idle iowait: both of the last are time
		 * in the idle task (iowait: with a task of the CPU blocked
		 * on I/O) */
		if (sscanf(line + n, "%llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
			   &v[3], &v[4]) == 5)
			ms = (long long)((v[3] + v[4]) * 1000 / (unsigned long long)tck);
		break;
	}
	fclose(f);
	return ms;
}

bool pa_pmu_groups_limited(void)
{
	/* x86 validate_group() (arch/x86/events/core.c), arm and arm64
	 * validate_group() (drivers/perf/arm_pmu.c; arch/arm before 4.x),
	 * powerpc collect_events() against ppmu->n_counter (core-book3s.c,
	 * core-fsl-emb.c), loongarch and mips validate_group(): each
	 * schedules the group on a fake CPU of at most 32 counters */
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__) || \
	defined(__arm__) || defined(__powerpc__) || defined(__loongarch__) || \
	defined(__mips__)
	return true;
#else
	return false;
#endif
}
