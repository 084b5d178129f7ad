#include "perfabi.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>

extern char __executable_start[], etext[];

/* Offset of field `name` in the tracepoint's format file; the documented
 * default where tracefs cannot be read here. */
static int field_offset(const char *fmt, const char *name, int dflt)
{
	char key[64];
	const char *at;
	int off;

	if (!fmt)
		return dflt;
	snprintf(key, sizeof(key), " %s;", name);
	at = strstr(fmt, key);
	if (!at || !(at = strstr(at, "offset:")) || sscanf(at, "offset:%d", &off) != 1)
		return dflt;
	return off;
}

static char *read_format_file(const char *sys, const char *event)
{
	static char buf[8192];
	const char *tfs = pa_tracefs();
	char path[256];
	size_t n;
	FILE *f;

	if (!tfs)
		return NULL;
	snprintf(path, sizeof(path), "%s/events/%s/%s/format", tfs, sys, event);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/*
 * A syscall-entry tracepoint sample with IDENTIFIER|IP|TID|TIME|ID|
 * STREAM_ID|CPU|PERIOD|READ|RAW: every field checked against a value only
 * it can have, the RAW entry's common_type, common_pid and __syscall_nr at
 * the offsets the tracepoint's format file gives.
 */
PERFABI_CASE(
	.assertion = "a PERF_RECORD_SAMPLE of tracepoint syscalls:sys_enter_getppid with IDENTIFIER|IP|TID|TIME|ID|STREAM_ID|CPU|PERIOD|READ|RAW holds, in the documented order, {identifier, ip = where the syscall returns to in user space, pid/tid, time between clock readings around the call, id, stream_id, cpu/res, period 1, read_format {1, id}, u32 size + the raw entry whose common_type is the tracepoint id, common_pid this thread and __syscall_nr SYS_getppid}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE layout: \"u32 size; char data[size]; if PERF_SAMPLE_RAW\" after read_format and callchain; tracefs events/syscalls/sys_enter_getppid/format; kernel/trace/trace_syscalls.c perf_syscall_enter(): submitted with the syscall's user pt_regs",
	.alone = true,
	.covers = "record.SAMPLE type.TRACEPOINT sample.RAW sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ID sample.STREAM_ID sample.CPU sample.PERIOD sample.READ read_format.ID attr.use_clockid attr.clockid",
	.min_kernel = "4.1",	/* use_clockid; IDENTIFIER is 3.12 */
	.tracefs = true,
) {
	long id_tp = pa_tp_id_or_skip("syscalls", "sys_enter_getppid");
	struct perf_event_attr attr = pa_tp_attr((uint64_t)id_tp);
	int want = pa_expected_errno(PA_NEED_KERNEL);
	const char *fmt = read_format_file("syscalls", "sys_enter_getppid");
	int off_type = field_offset(fmt, "common_type", 0);
	int off_pid = field_offset(fmt, "common_pid", 4);
	int off_nr = field_offset(fmt, "__syscall_nr", 8);
	const struct perf_event_header *h;
	uint64_t id = 0, before, after, ret_ip = 0, rv[2];
	struct pa_sample s;
	struct pa_ring r;
	uint16_t type;
	int32_t pid, nr;
	int fd, cpu, n = 0;
	long ppid;

	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));
	pa_diag("format offsets: common_type %d, common_pid %d, __syscall_nr %d%s",
		off_type, off_pid, off_nr, fmt ? "" : " (defaults: no format file)");
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |
			   PERF_SAMPLE_RAW;
	attr.read_format = PERF_FORMAT_ID;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, 0, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 8);
	pa_ring_prefault(&r);
	(void)pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	before = pa_clock_ns(CLOCK_MONOTONIC);
	ppid = pa_getppid_at(&ret_ip);
	after = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(ppid, (long)getppid());

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		/* header, 8 u64 fields, read_format {value, id}, u32 size +
		 * raw_size bytes padded to 8 */
		EXPECT_EQ((size_t)h->size, sizeof(*h) + 8 * 8 + 2 * 8 +
			  ((4 + (size_t)s.var.raw_size + 7) & ~(size_t)7));
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.identifier, id);
		if (ret_ip) {
			EXPECT_EQ(s.ip, ret_ip);
		} else {
			EXPECT_GE(s.ip, (uint64_t)(uintptr_t)__executable_start);
			EXPECT_LT(s.ip, (uint64_t)(uintptr_t)etext);
		}
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)syscall(SYS_gettid));
		EXPECT_GE(s.time, before);
		EXPECT_LE(s.time, after);
		EXPECT_EQ(s.id, id);
		EXPECT_EQ(s.stream_id, id);
		EXPECT_EQ(s.cpu, (uint32_t)cpu);
		EXPECT_EQ(s.res, 0u);
		EXPECT_EQ(s.period, 1u);
		EXPECT_EQ(s.read[0], 1u);
		EXPECT_EQ(s.read[1], id);
		ASSERT_GE(s.var.raw_size, (uint32_t)(off_nr + 4));
		memcpy(&type, (const char *)s.raw + off_type, sizeof(type));
		memcpy(&pid, (const char *)s.raw + off_pid, sizeof(pid));
		memcpy(&nr, (const char *)s.raw + off_nr, sizeof(nr));
		EXPECT_EQ(type, (uint16_t)id_tp);
		EXPECT_EQ(pid, (int32_t)syscall(SYS_gettid));
		EXPECT_EQ(nr, (int32_t)SYS_getppid);
	}
	EXPECT_EQ(n, 1);
	pa_read_u64(fd, rv, 2);
	EXPECT_EQ(rv[0], 1u);
	EXPECT_EQ(rv[1], id);
	pa_ring_unmap(&r);
	close(fd);
}
