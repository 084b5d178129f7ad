#include "perfabi.h"

static const char *probe(void)
{
	const char *r = pa_probe_self_perf();

	if (r)
		return r;
	if (!pa_perfmon_capable())
		return "QUERY_BPF needs CAP_PERFMON or CAP_SYS_ADMIN";
	if (pa_tracepoint_id("raw_syscalls", "sys_enter") < 0)
		return "no raw_syscalls:sys_enter tracepoint";
	return NULL;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_QUERY_BPF fails with EINVAL on a non-tracepoint event, E2BIG when ids_len exceeds the 64-program limit, and EFAULT on a bad pointer",
	.ref = "kernel/trace/bpf_trace.c perf_event_query_prog_array(): type != TRACEPOINT -> EINVAL, ids_len > BPF_TRACE_MAX_PROGS -> E2BIG, copy_from_user -> EFAULT",
	.covers = "ioctl.QUERY_BPF",
	.features = "bpf",
	.tracefs = true,
	.probe = probe,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_query_bpf q = { 0 };
	int sw, tp;

	sw = ASSERT_OPEN(&a, 0, -1, -1, 0);
	EXPECT_ERRNO(ioctl(sw, PERF_EVENT_IOC_QUERY_BPF, &q), EINVAL);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)pa_tracepoint_id("raw_syscalls", "sys_enter");
	tp = ASSERT_OPEN(&a, 0, -1, -1, 0);
	q.ids_len = 65;
	EXPECT_ERRNO(ioctl(tp, PERF_EVENT_IOC_QUERY_BPF, &q), E2BIG);
	EXPECT_ERRNO(ioctl(tp, PERF_EVENT_IOC_QUERY_BPF, (void *)8), EFAULT);
	close(tp);
	close(sw);
}
