// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints kept registered for the whole run.
 *
 * Closing the last perf event of a tracepoint unregisters perf's probe from
 * it and waits until the tracepoint's last callers are gone
 * (kernel/trace/trace_event_perf.c perf_trace_event_unreg() ->
 * tracepoint_synchronize_unregister(): an RCU tasks-trace and an RCU grace
 * period), 15-27 ms on the machine of docs/speed.md, in which the result's
 * slot sits idle; the next open registers the probe again. The tracepoints
 * of the privilege cases are opened and closed in every one of the 24
 * matrix cells.
 *
 * So each case names the tracepoints it resolves (pa_tracepoint_id() writes
 * "sys event" to the FIFO $PERFABI_TRACEPOINT_KEEP in the run's private
 * directory), and the runner, root, opens one disabled counting event of
 * each on itself, closed when it exits. While one is open, perf_refcount of
 * the tracepoint stays above 0: the cases' events register and unregister
 * nothing, and their close does not wait. A kept event counts nothing and
 * is in no context a case reads: disabled, on the runner's own task, not
 * inherited, close-on-exec. The runner holds no other perf event while
 * cases run: lib/holders.c, which looks for what else could take
 * breakpoint slots or PMU counters, passes over it
 * ($PERFABI_TRACEPOINT_KEEPER).
 *
 * A kprobe PMU event is a trace event of its own, made at its open and
 * unmade at its close; its kprobe is armed and disarmed with it (text
 * patched: an int3, or an ftrace call site, with IPIs to every CPU, and
 * under QEMU TCG the retranslation of the patched code). But a kprobe
 * registered where another already is joins it (register_aggr_kprobe()):
 * the address is armed while any of them is enabled, so the cases' kprobes
 * on it arm and disarm nothing. On Debian 6.12 under TCG a kprobe event on
 * getppid's entry opened in 9.0 ms and closed in 8.1 ms; with one more held
 * on the same function, 1.0 and 0.8 ms. So pa_kprobe_attr() asks for
 * "kprobe-syscall NAME" where its function is the entry of a syscall in
 * pa_kprobe_keepable[] (getppid: the kprobes of lib/hits.c and of the
 * probe cases), and the runner holds a disabled kprobe event of its own
 * on that function: its trace event is registered with perf, so its kprobe
 * stays enabled, while the event itself is never scheduled and counts
 * nothing. The function is the runner's own pa_syscall_symbol() of a name
 * in that list, never one the FIFO spells out.
 *
 * Kept: only the tracepoints listed at the run's start
 * ($PERFABI_TRACEPOINT_IDS), never one in ftrace/ (ftrace:function
 * registers an ftrace_ops per event) or a dynamic event (kprobe, uprobe,
 * synthetic, ...: a kept one could not be deleted by the case that made
 * it); at most KEEP_MAX. A name that is none of these is ignored: anyone
 * may write to the FIFO, and the worst it can do is keep a static
 * tracepoint registered until the run ends.
 */
#include "runner.h"

#include <fcntl.h>
#include <sys/stat.h>

#define KEEP_MAX 64

static int fifo = -1;
static char asked[KEEP_MAX][128];	/* names seen, kept or not */
static int nasked;
static char pending[512];		/* a line not yet whole */
static size_t npending;

int pa_tp_keep_start(void)
{
	const char *dir;
	char path[256], pid[16];

	if (geteuid() != 0)
		return 0;
	if ((!pa_tracefs() || !getenv("PERFABI_TRACEPOINT_IDS")) && pa_pmu_type("kprobe") < 0)
		return 0;
	dir = pa_run_private();
	if (!dir)
		return -1;
	snprintf(path, sizeof(path), "%s/tracepoint-keep", dir);
	/* 0622: every identity may name a tracepoint, only root reads */
	if (mkfifo(path, 0600))
		return -1;
	if (chmod(path, 0622)) {
		unlink(path);
		return -1;
	}
	/* read and write: never EOF when no case has it open */
	fifo = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fifo < 0) {
		unlink(path);
		return -1;
	}
	setenv("PERFABI_TRACEPOINT_KEEP", path, 1);
	/* holders.c: the cases' scan for other perf users passes over it */
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("PERFABI_TRACEPOINT_KEEPER", pid, 1);
	return 1;
}

bool pa_tp_dynamic_event(const char *t, const char *sys, const char *event)
{
	static const char *const lists[] = { "dynamic_events", "kprobe_events", "uprobe_events" };
	char path[512], line[512], want[300];
	bool found = false;

	snprintf(want, sizeof(want), "%s/%s", sys, event);
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]) && !found; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", t, lists[i]);
		f = fopen(path, "re");
		while (f && !found && fgets(line, sizeof(line), f)) {
			char *name = strchr(line, ':');
			size_t n;

			if (!name)
				continue;
			name++;
			n = strcspn(name, " \t\n");
			found = n == strlen(want) && !strncmp(name, want, n);
		}
		if (f)
			fclose(f);
	}
	return found;
}

/* A kprobe on the entry function of syscall name, when it is keepable. */
static void keep_kprobe(const char *name)
{
	struct perf_event_attr a;
	char func[128];
	int type = pa_pmu_type("kprobe");

	if (type < 0 || !pa_kprobe_keepable_syscall(name))
		return;
	pa_syscall_symbol_into(name, func, sizeof(func));
	a = pa_kprobe_attr_of(type, func, false);	/* disabled, counting */
	(void)pa_perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void keep(const char *line)
{
	char sys[128], event[128], name[128];
	struct perf_event_attr a;
	const char *t = pa_tracefs();
	long id;

	if (sscanf(line, "%127s %127s", sys, event) != 2)
		return;
	snprintf(name, sizeof(name), "%s %s", sys, event);
	for (int i = 0; i < nasked; i++)
		if (!strcmp(asked[i], name))
			return;
	if (nasked == KEEP_MAX)
		return;
	snprintf(asked[nasked++], sizeof(asked[0]), "%s", name);
	if (!strcmp(sys, PA_KEEP_KPROBE)) {
		keep_kprobe(event);
		return;
	}
	if (!t || !strcmp(sys, "ftrace") || (id = pa_tracepoint_listed_id(sys, event)) < 0 ||
	    pa_tp_dynamic_event(t, sys, event))
		return;
	a = pa_tp_attr((uint64_t)id);	/* disabled, counting */
	/* fails only where root cannot open it: then it is not kept */
	(void)pa_perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

void pa_tp_keep_drain(void)
{
	ssize_t n;

	if (fifo < 0)
		return;
	while ((n = read(fifo, pending + npending, sizeof(pending) - 1 - npending)) > 0) {
		char *p = pending, *nl;

		npending += (size_t)n;
		pending[npending] = 0;
		while ((nl = strchr(p, '\n'))) {
			*nl = 0;
			keep(p);
			p = nl + 1;
		}
		npending -= (size_t)(p - pending);
		memmove(pending, p, npending);
		if (npending == sizeof(pending) - 1)
			npending = 0;	/* no newline in a full buffer: junk */
	}
}
