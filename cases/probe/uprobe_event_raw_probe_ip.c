#include "perfabi.h"

#include <fcntl.h>
#include <sys/ioctl.h>

#define GROUP "perfabi_uraw"

__attribute__((noinline)) void pa_uraw_target_fn(void);
__attribute__((noinline)) void pa_uraw_target_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

static char event_name[32];

static int put(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* Delete every probe of GROUP: ours, or one a killed run left. */
static void remove_probes(void)
{
	const char *t = pa_tracefs();
	char path[512], line[1024], name[256], cmd[300];
	FILE *f;

	if (!t)
		return;
	snprintf(path, sizeof(path), "%s/uprobe_events", t);
	for (int round = 0; round < 64; round++) {
		bool found = false;

		f = fopen(path, "re");
		if (!f)
			return;
		while (!found && fgets(line, sizeof(line), f))
			found = sscanf(line, "%*[pr]:" GROUP "/%255s", name) == 1;
		fclose(f);
		snprintf(cmd, sizeof(cmd), "-:" GROUP "/%s\n", name);
		if (!found || put(path, cmd))
			return;
	}
}

static void calls(void *arg)
{
	for (int i = 0; i < *(int *)arg; i++)
		pa_uraw_target_fn();
}

PERFABI_CASE(
	.assertion = "each hit of a uprobe trace event (tracefs uprobe_events \"p:GROUP/NAME PATH:OFFSET\") sampled with PERF_SAMPLE_RAW carries, at the offsets of its format file, common_type = the event id, common_pid = the thread that called, __probe_ip = the probed function's address in that process; the sample's ip is that address too",
	.ref = "Documentation/trace/uprobetracer.rst (\"p[:[GRP/][EVENT]] PATH:OFFSET\", events/*/*/format); kernel/trace/trace_uprobe.c __uprobe_perf_func() (vaddr[0] = instruction_pointer(regs)), uprobe_event_define_fields() (__probe_ip); perf_event_open(2) PERF_SAMPLE_RAW",
	.covers = "type.TRACEPOINT sample.RAW sample.IP sample.TID",
	.tracefs = true,
	.root = true,
	.min_kernel = "3.5",
) {
	const char *t = pa_tracefs();
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_uraw_target_fn") : -1;
	uint64_t fn_addr = (uint64_t)(uintptr_t)pa_uraw_target_fn;
	const struct perf_event_header *h;
	struct perf_event_attr attr;
	const struct pa_tp_field *ip;
	char path[512], cmd[4200];
	struct pa_tp_format fmt;
	struct pa_thread th;
	struct pa_sample s;
	struct pa_ring r;
	int fd, n = 0, want_calls = 5;
	long id;

	if (off < 0)
		pa_skip("cannot find pa_uraw_target_fn in %s", exe ? exe : "/proc/self/exe");
	snprintf(path, sizeof(path), "%s/uprobe_events", t);
	if (access(path, W_OK))
		pa_skip("no writable %s (CONFIG_UPROBE_EVENTS)", path);
	remove_probes();
	atexit(remove_probes);
	snprintf(event_name, sizeof(event_name), "u%d", (int)getpid());
	snprintf(cmd, sizeof(cmd), "p:" GROUP "/%s %s:0x%lx\n", event_name, exe, off);
	ASSERT_OK(put(path, cmd));
	ASSERT_OK(pa_tp_format_load(GROUP, event_name, &fmt));
	id = pa_tracepoint_id(GROUP, event_name);
	EXPECT_EQ(fmt.id, id);
	ip = pa_tp_field(&fmt, "__probe_ip");
	ASSERT_TRUE(ip != NULL);
	EXPECT_EQ(ip->size, (int)sizeof(long));

	attr = pa_tp_attr((uint64_t)id);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	pa_thread_start(&th, NULL, calls, &want_calls);
	fd = ASSERT_OPEN(&attr, th.tid, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_thread_run(&th);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	while ((h = pa_ring_find(&r, PERF_RECORD_SAMPLE))) {
		n++;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.ip, fn_addr);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)th.tid);
		pa_tp_expect_common(&fmt, s.raw, s.var.raw_size, id, th.tid);
		PA_TP_EXPECT_INT(&fmt, s.raw, s.var.raw_size, "__probe_ip", fn_addr);
	}
	EXPECT_EQ(n, want_calls);
	pa_ring_unmap(&r);
	close(fd);
}
