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

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_QUERY_BPF with an ids array too small for the attached programs (0 < ids_len < prog_cnt) fails with ENOSPC after filling prog_cnt with the number attached and ids with the first ids_len ids (nothing past them; ids_len is left as it was); ids_len 0 asks only for the count and succeeds",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_QUERY_BPF (since Linux 4.16); kernel/bpf/core.c bpf_prog_array_copy_info(): \"return early if user requested only program count\", else -ENOSPC when more programs than ids_len; kernel/trace/bpf_trace.c perf_event_query_prog_array() copies prog_cnt and ids_len ids back either way",
	.covers = "ioctl.QUERY_BPF ioctl.SET_BPF type.TRACEPOINT errno.ENOSPC",
	.features = "bpf",
	.tracefs = true,
	.root = true,		/* loading a tracing program: CAP_BPF + CAP_PERFMON */
	.min_kernel = "4.16",
) {
	long tp = pa_tp_id_or_skip("syscalls", "sys_enter_getpgid");
	struct perf_event_attr a = pa_tp_attr((uint64_t)tp);
	static struct {
		struct perf_event_query_bpf q;
		uint32_t ids[64];
	} b;
	uint32_t ida, idb, base, i;
	int pa, pb, ea, eb;

	pa = load_tp_prog(1, &ida);
	pb = load_tp_prog(1, &idb);
	ea = ASSERT_OPEN(&a, 0, -1, -1, 0);
	eb = ASSERT_OPEN(&a, 0, -1, -1, 0);
	/* programs someone else attached to this tracepoint count too */
	memset(&b, 0, sizeof(b));
	ASSERT_OK(ioctl(ea, PERF_EVENT_IOC_QUERY_BPF, &b.q));
	base = b.q.prog_cnt;
	ASSERT_LE(base, 60);
	ASSERT_OK(ioctl(ea, PERF_EVENT_IOC_SET_BPF, pa));
	ASSERT_OK(ioctl(eb, PERF_EVENT_IOC_SET_BPF, pb));

	/* one id short */
	memset(&b, 0xff, sizeof(b));
	b.q.ids_len = base + 1;
	EXPECT_ERRNO(ioctl(ea, PERF_EVENT_IOC_QUERY_BPF, &b.q), ENOSPC);
	EXPECT_EQ(b.q.prog_cnt, base + 2);
	EXPECT_EQ(b.q.ids_len, base + 1);	/* not rewritten */
	for (i = 0; i < base + 1; i++)
		EXPECT_NE(b.ids[i], 0xffffffffu);
	EXPECT_EQ(b.ids[base + 1], 0xffffffffu);

	/* only the count */
	memset(&b, 0xff, sizeof(b));
	b.q.ids_len = 0;
	EXPECT_OK(ioctl(ea, PERF_EVENT_IOC_QUERY_BPF, &b.q));
	EXPECT_EQ(b.q.prog_cnt, base + 2);
	EXPECT_EQ(b.ids[0], 0xffffffffu);

	/* room for all: accepted */
	memset(&b, 0, sizeof(b));
	b.q.ids_len = base + 2;
	EXPECT_OK(ioctl(ea, PERF_EVENT_IOC_QUERY_BPF, &b.q));
	EXPECT_EQ(b.q.prog_cnt, base + 2);
	close(eb);
	close(ea);
	close(pb);
	close(pa);
}
