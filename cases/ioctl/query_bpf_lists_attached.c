#include "perfabi.h"

#include <sys/syscall.h>

/* The perf_event_query_bpf header and room for BPF_TRACE_MAX_PROGS ids. */
struct query {
	struct perf_event_query_bpf q;
	uint32_t ids[64];
};

static uint32_t query_all(int fd, struct query *b)
{
	memset(b, 0, sizeof(*b));
	b->q.ids_len = 64;
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, &b->q));
	return b->q.prog_cnt;
}

static bool listed(const struct query *b, uint32_t id)
{
	for (uint32_t i = 0; i < b->q.prog_cnt && i < 64; i++)
		if (b->ids[i] == id)
			return true;
	return false;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_QUERY_BPF on a tracepoint event reports the BPF programs attached to that tracepoint: after PERF_EVENT_IOC_SET_BPF of programs A and B (on two events of the tracepoint) prog_cnt grows by 2 and ids lists both ids, also queried through a third event with no program of its own; closing A's event removes A",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_QUERY_BPF (since Linux 4.16): \"which Berkeley Packet Filter (BPF) programs are attached to an existing kprobe tracepoint\", struct perf_event_query_bpf {ids_len, prog_cnt, ids[]}; kernel/trace/bpf_trace.c perf_event_query_prog_array() (tp_event->prog_array)",
	.alone = true,
	.covers = "ioctl.QUERY_BPF ioctl.SET_BPF type.TRACEPOINT",
	.features = "bpf",
	.tracefs = true,
	.root = true,		/* loading a tracing program: CAP_BPF + CAP_PERFMON */
	.min_kernel = "4.16",
) {
	long tp = pa_tp_id_or_skip("syscalls", "sys_enter_getpgid");
	struct perf_event_attr a = pa_tp_attr((uint64_t)tp);
	static struct query b;
	uint32_t ida, idb, base;
	int pa, pb, ea, eb, e3;

	pa = pa_bpf_load_tracepoint(1, &ida);
	pb = pa_bpf_load_tracepoint(1, &idb);
	ea = ASSERT_OPEN(&a, 0, -1, -1, 0);
	eb = ASSERT_OPEN(&a, 0, -1, -1, 0);
	e3 = ASSERT_OPEN(&a, 0, -1, -1, 0);
	/* programs someone else attached to this tracepoint are listed too */
	base = query_all(e3, &b);
	ASSERT_LE(base, 62);
	EXPECT_FALSE(listed(&b, ida));

	ASSERT_OK(ioctl(ea, PERF_EVENT_IOC_SET_BPF, pa));
	ASSERT_OK(ioctl(eb, PERF_EVENT_IOC_SET_BPF, pb));
	EXPECT_EQ(query_all(e3, &b), base + 2);
	EXPECT_TRUE(listed(&b, ida));
	EXPECT_TRUE(listed(&b, idb));
	EXPECT_EQ(query_all(ea, &b), base + 2);	/* the same list */

	close(ea);	/* detaches A */
	EXPECT_EQ(query_all(e3, &b), base + 1);
	EXPECT_FALSE(listed(&b, ida));
	EXPECT_TRUE(listed(&b, idb));
	close(eb);
	EXPECT_EQ(query_all(e3, &b), base);
	close(e3);
	close(pb);
	close(pa);
}
