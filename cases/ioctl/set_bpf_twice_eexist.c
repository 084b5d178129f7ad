#include "perfabi.h"

#include <sys/syscall.h>

#define N 50

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_BPF on a tracepoint event that already has a BPF program fails with EEXIST, for another program and for the same one again; the first program stays attached and keeps running",
	.ref = "kernel/trace/bpf_trace.c perf_event_attach_bpf_prog(): event->prog already set -> -EEXIST (the man page lists no ioctl errors); perf_event_open(2) PERF_EVENT_IOC_SET_BPF",
	.alone = true,
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

	p1 = pa_bpf_load_tracepoint(1, &id1);	/* counts every hit */
	p0 = pa_bpf_load_tracepoint(0, &id0);	/* would drop every hit */
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
