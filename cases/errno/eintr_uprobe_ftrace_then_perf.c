#include "perfabi.h"

#include <fcntl.h>

/*
 * A uprobe trace event is handled either by ftrace or by perf, not both:
 * with the event enabled through tracefs (TP_FLAG_TRACE), opening it as
 * a perf tracepoint makes trace_uprobe_register(TRACE_REG_PERF_REGISTER)
 * -> probe_event_enable(file == NULL) return -EINTR. The probe is placed
 * on a fixture binary nobody runs, so it never fires.
 */
#define GROUP "pa_group_eintr"

static int write_str(const char *path, const char *s, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* Disable and delete every probe of GROUP (ours, or a killed run's). */
static void cleanup(const char *t)
{
	char path[512], line[1024], name[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/uprobe_events", t);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, GROUP "/"), *sp;

		if (!p)
			continue;
		if ((sp = strchr(p, ' ')))
			*sp = 0;
		snprintf(name, sizeof(name), "%s", p);
		snprintf(path, sizeof(path), "%s/events/%s/enable", t, name);
		write_str(path, "0", 0);
		snprintf(path, sizeof(path), "%s/uprobe_events", t);
		snprintf(line, sizeof(line), "-:%s\n", name);
		write_str(path, line, O_APPEND);
	}
	fclose(f);
}

PERFABI_CASE(
	.assertion = "opening a uprobe trace event as a perf event while ftrace has it enabled fails with EINTR (perf and ftrace handling cannot be mixed)",
	.ref = "perf_event_open(2), EINTR: \"Returned when trying to mix perf and ftrace handling for a uprobe\"; kernel/trace/trace_uprobe.c probe_event_enable(): TP_FLAG_TRACE set and file == NULL -> -EINTR",
	.alone = true,
	.covers = "errno.EINTR",
	.root = true,
	.tracefs = true,
) {
	const char *t = pa_tracefs();
	char path[512], cmd[1024], name[64];
	struct perf_event_attr attr = pa_sw_attr(0);
	long id;

	snprintf(path, sizeof(path), "%s/uprobe_events", t);
	if (access(path, W_OK))
		pa_skip("no uprobe_events in tracefs (CONFIG_UPROBE_EVENTS)");
	cleanup(t);
	snprintf(name, sizeof(name), "p%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "p:%s/%s %s:0x1000\n", GROUP, name,
		 pa_fixture("fd_state"));
	if (write_str(path, cmd, O_APPEND))
		pa_skip("cannot create uprobe \"%s\": %s", cmd, pa_errno_name(errno));
	id = pa_tracepoint_id(GROUP, name);
	snprintf(path, sizeof(path), "%s/events/%s/%s/enable", t, GROUP, name);
	if (id < 0 || write_str(path, "1", 0)) {
		pa_fail("uprobe %s/%s: id %ld, enabling it via ftrace: %s", GROUP,
			name, id, pa_errno_name(errno));
		cleanup(t);
		pa_abort();
	}
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = (uint64_t)id;
	EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, EINTR);
	/* once ftrace lets go of it, perf may have it */
	if (write_str(path, "0", 0) == 0) {
		int fd = EXPECT_OPEN(&attr, 0, -1, -1, 0);

		if (fd >= 0)
			close(fd);
	}
	cleanup(t);
}
