#include "perfabi.h"

#include <sys/syscall.h>

#define N 50

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

/* Count N getpgid() calls with a syscalls:sys_enter_getpgid event that
 * has the program prog attached. */
static uint64_t count_with(long tp, int prog)
{
	struct perf_event_attr a = pa_tp_attr((uint64_t)tp);
	uint64_t v;
	int fd = ASSERT_OPEN(&a, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < N; i++)
		syscall(SYS_getpgid, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	v = pa_read_one(fd);
	close(fd);	/* detaches the program */
	return v;
}

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_BPF attaches a BPF_PROG_TYPE_TRACEPOINT program to a tracepoint event and the program runs on every hit: its return value decides whether the hit is counted (1: all N hits are counted, 0: none)",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_BPF (since Linux 4.1; syscall tracepoints since 4.14); kernel/trace/trace_syscalls.c perf_syscall_enter(): a program returning 0 (perf_call_bpf_enter()) drops the hit",
	.covers = "ioctl.SET_BPF type.TRACEPOINT",
	.features = "bpf",
	.tracefs = true,
	.root = true,		/* loading a tracing program: CAP_BPF + CAP_PERFMON */
	.min_kernel = "4.14",
) {
	long tp = pa_tp_id_or_skip("syscalls", "sys_enter_getpgid");
	uint32_t id0, id1;
	int p0, p1;

	p1 = load_tp_prog(1, &id1);
	p0 = load_tp_prog(0, &id0);
	EXPECT_NE(id0, id1);
	EXPECT_EQ(count_with(tp, p1), N);
	EXPECT_EQ(count_with(tp, p0), 0);
	close(p0);
	close(p1);
}
