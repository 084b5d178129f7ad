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

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_BPF on a tracepoint event that already has a BPF program fails with EEXIST, for another program and for the same one again; the first program stays attached and keeps running",
	.ref = "kernel/trace/bpf_trace.c perf_event_attach_bpf_prog(): event->prog already set -> -EEXIST (the man page lists no ioctl errors); perf_event_open(2) PERF_EVENT_IOC_SET_BPF",
	.covers = "ioctl.SET_BPF type.TRACEPOINT errno.EEXIST",
	.features = "bpf",
	.tracefs = true,
	.root = true,		/* loading a tracing program: CAP_BPF + CAP_PERFMON */
	.min_kernel = "4.14",
) {
	long tp = pa_tp_id_or_skip("syscalls", "sys_enter_getpgid");
	struct perf_event_attr a = pa_tp_attr((uint64_t)tp);
	uint32_t id0, id1;
	int p0, p1, fd;

	p1 = load_tp_prog(1, &id1);	/* counts every hit */
	p0 = load_tp_prog(0, &id0);	/* would drop every hit */
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_SET_BPF, p1));
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_BPF, p0), EEXIST);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_BPF, p1), EEXIST);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < N; i++)
		syscall(SYS_getpgid, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), N);	/* p1 ran, p0 was not attached */
	close(fd);
	close(p0);
	close(p1);
}
