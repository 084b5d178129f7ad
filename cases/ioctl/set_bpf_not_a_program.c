#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_EVENT_IOC_SET_BPF takes a BPF program fd: a closed fd is EBADF, an fd that is not a BPF program is EINVAL",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_BPF (since Linux 4.1); kernel/bpf/syscall.c __bpf_prog_get()",
	.alone = true,
	.covers = "ioctl.SET_BPF",
	.features = "bpf",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	int fd, p[2];

	a.disabled = 1;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	ASSERT_OK(pipe(p));
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_BPF, p[0]), EINVAL);
	close(p[0]);
	EXPECT_ERRNO(ioctl(fd, PERF_EVENT_IOC_SET_BPF, p[0]), EBADF);
	close(p[1]);
	close(fd);
}
