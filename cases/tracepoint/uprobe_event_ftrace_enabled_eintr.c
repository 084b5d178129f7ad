#include "perfabi.h"
#include <fcntl.h>

__attribute__((noinline)) void pa_eintr_target_fn(void);
__attribute__((noinline)) void pa_eintr_target_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

#define GROUP "perfabi_eintr"

static int put(const char *path, const char *s, bool append)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* Disable and delete every probe of our group (ours, or left by a killed run). */
static void cleanup(const char *t)
{
	char path[512], line[1024], name[256], cmd[300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/uprobe_events", t);
	for (int round = 0; round < 64; round++) {
		bool found = false;

		f = fopen(path, "re");
		if (!f)
			return;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "%*[pr]:" GROUP "/%255s", name) == 1) {
				found = true;
				break;
			}
		fclose(f);
		if (!found)
			return;
		snprintf(cmd, sizeof(cmd), "%s/events/" GROUP "/%s/enable", t, name);
		put(cmd, "0", false);
		snprintf(cmd, sizeof(cmd), "-:" GROUP "/%s\n", name);
		if (put(path, cmd, true))
			return;
	}
}

PERFABI_CASE(
	.assertion = "perf_event_open() of a uprobe trace event (made in tracefs uprobe_events) that ftrace has enabled fails with EINTR: perf and ftrace cannot share a uprobe",
	.ref = "perf_event_open(2), EINTR \"Returned when trying to mix perf and ftrace handling for a uprobe\"; kernel/trace/trace_uprobe.c probe_event_enable()",
	.alone = true,
	.covers = "errno.EINTR type.TRACEPOINT",
	.tracefs = true,
	.root = true,
	.min_kernel = "3.5",
) {
	const char *t = pa_tracefs();
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_eintr_target_fn") : -1;
	char path[512], cmd[4200], name[64];
	struct perf_event_attr attr;
	long id;

	if (off < 0)
		pa_skip("cannot find pa_eintr_target_fn in %s", exe ? exe : "/proc/self/exe");
	snprintf(path, sizeof(path), "%s/uprobe_events", t);
	if (access(path, W_OK))
		pa_skip("no writable %s (CONFIG_UPROBE_EVENTS)", path);
	cleanup(t);
	snprintf(name, sizeof(name), "u%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "p:" GROUP "/%s %s:0x%lx\n", name, exe, off);
	if (put(path, cmd, true)) {
		pa_fail("cannot add the uprobe event '%s': %s", cmd, strerror(errno));
		return;
	}
	id = pa_tracepoint_id(GROUP, name);
	snprintf(path, sizeof(path), "%s/events/" GROUP "/%s/enable", t, name);
	if (id < 0 || put(path, "1", false)) {
		pa_fail("cannot enable the uprobe event (id %ld)", id);
	} else {
		attr = pa_tp_attr((uint64_t)id);
		attr.exclude_kernel = 1;
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINTR);
		pa_eintr_target_fn();
	}
	cleanup(t);
}
