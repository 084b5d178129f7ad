#include "perfabi.h"

static const char *probe(void)
{
	const char *r = pa_probe_self_perf();

	if (r)
		return r;
	if (pa_tracepoint_id("raw_syscalls", "sys_enter") < 0)
		return "no raw_syscalls:sys_enter tracepoint";
	return NULL;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_QUERY_BPF on a tracepoint event reports the attached BPF programs: none gives prog_cnt 0; it needs CAP_PERFMON (or CAP_SYS_ADMIN), else EPERM",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_QUERY_BPF (since Linux 4.16); kernel/trace/bpf_trace.c perf_event_query_prog_array()",
	.covers = "ioctl.QUERY_BPF type.TRACEPOINT",
	.features = "bpf",
	.tracefs = true,
	.privileged = true,
	.probe = probe,
) {
	struct perf_event_attr a = pa_sw_attr(0);
	struct {
		struct perf_event_query_bpf q;
		uint32_t ids[4];
	} buf;
	int fd, want = pa_perfmon_capable() ? 0 : EPERM;

	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)pa_tracepoint_id("raw_syscalls", "sys_enter");
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	memset(&buf, 0, sizeof(buf));
	buf.q.ids_len = 4;
	buf.q.prog_cnt = 99;
	if (want) {
		EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, &buf.q), want);
	} else {
		EXPECT_OK(ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, &buf.q));
		EXPECT_EQ(buf.q.prog_cnt, 0);
	}
	close(fd);
}
