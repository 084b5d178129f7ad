#include "perfabi.h"

#include <sys/syscall.h>

#define N 50

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
	.alone = true,
	.covers = "ioctl.SET_BPF type.TRACEPOINT",
	.features = "bpf",
	.tracefs = true,
	.root = true,		/* loading a tracing program: CAP_BPF + CAP_PERFMON */
	.min_kernel = "4.14",
) {
	long tp = pa_tp_id_or_skip("syscalls", "sys_enter_getpgid");
	uint32_t id0, id1;
	int p0, p1;

	p1 = pa_bpf_load_tracepoint(1, &id1);
	p0 = pa_bpf_load_tracepoint(0, &id0);
	EXPECT_NE(id0, id1);
	EXPECT_EQ(count_with(tp, p1), N);
	EXPECT_EQ(count_with(tp, p0), 0);
	close(p0);
	close(p1);
}
