#include "perfabi.h"

#include <sys/syscall.h>

/* union bpf_attr: the BPF_PROG_LOAD and BPF_OBJ_GET_INFO_BY_FD parts */
struct bpf_load {
	uint32_t prog_type, insn_cnt;
	uint64_t insns, license;
	uint32_t log_level, log_size;
	uint64_t log_buf;
	uint32_t kern_version, prog_flags;
	char prog_name[16];
};
struct bpf_info_by_fd {
	uint32_t bpf_fd, info_len;
	uint64_t info;
};

/* Load "r0 = ret; exit" as a BPF_PROG_TYPE_TRACEPOINT program: its fd and
 * id; SKIP where this kernel or context cannot load one. */
static int load_tp_prog(int ret, uint32_t *id)
{
	uint64_t insns[2] = { 0xb7 | (uint64_t)(uint32_t)ret << 32, 0x95 };
	union { struct bpf_load l; uint8_t pad[256]; } la;
	union { struct bpf_info_by_fd i; uint8_t pad[256]; } ia;
	struct { uint32_t type, id; uint8_t tag[8]; } info;
	int fd;

	memset(&la, 0, sizeof(la));
	la.l.prog_type = 5;			/* BPF_PROG_TYPE_TRACEPOINT */
	la.l.insn_cnt = 2;
	la.l.insns = (uint64_t)(uintptr_t)insns;
	la.l.license = (uint64_t)(uintptr_t)"GPL";
	snprintf(la.l.prog_name, sizeof(la.l.prog_name), "pa_tp_ret%d", ret);
	fd = (int)syscall(SYS_bpf, 5 /* BPF_PROG_LOAD */, &la, sizeof(la));
	if (fd < 0)
		pa_skip("cannot load a BPF_PROG_TYPE_TRACEPOINT program: %s",
			pa_errno_name(errno));
	memset(&info, 0, sizeof(info));
	memset(&ia, 0, sizeof(ia));
	ia.i.bpf_fd = (uint32_t)fd;
	ia.i.info_len = sizeof(info);
	ia.i.info = (uint64_t)(uintptr_t)&info;
	ASSERT_OK(syscall(SYS_bpf, 15 /* BPF_OBJ_GET_INFO_BY_FD */, &ia, sizeof(ia)));
	*id = info.id;
	return fd;
}

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

	pa = load_tp_prog(1, &ida);
	pb = load_tp_prog(1, &idb);
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
