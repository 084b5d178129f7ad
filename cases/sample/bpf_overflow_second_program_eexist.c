#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#define N 16

PERFABI_CASE(
	.assertion = "a sampling software event takes one BPF program: once PERF_EVENT_IOC_SET_BPF attached a BPF_PROG_TYPE_PERF_EVENT program, SET_BPF of another such program or of the same one, and BPF_LINK_CREATE (BPF_PERF_EVENT) of another, fail with EEXIST, and the first stays attached alone: N page faults at sample_period 1 run it (r0 = 1) N times and write N samples, and run the other 0 times",
	.ref = "kernel/events/core.c perf_event_set_bpf_handler(): event->prog already set -> -EEXIST, reached from PERF_EVENT_IOC_SET_BPF (__perf_event_set_bpf_prog()) and from BPF_LINK_CREATE (kernel/bpf/syscall.c bpf_perf_link_attach() -> perf_event_set_bpf_prog()), the same in 6.1 and 6.12; the man page lists no ioctl errors",
	.alone = true,
	.covers = "ioctl.SET_BPF errno.EEXIST sw.PAGE_FAULTS record.SAMPLE sample.TID sample.ADDR sample.READ",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type, BPF_ENABLE_STATS */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "5.15",	/* the BPF perf link */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct pa_fault_thread ft = { 0 };
	struct pa_ring r;
	int p1, p0, stats;

	p1 = pa_bpf_load_perf_event(1);	/* keeps every sample */
	p0 = pa_bpf_load_perf_event(0);	/* would drop every sample */
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ;
	pa_fault_thread_start(&ft, N, 1, &attr, &cattr);
	pa_ring_map(&r, ft.fd, 16);
	ASSERT_OK(ioctl(ft.fd, PERF_EVENT_IOC_SET_BPF, p1));
	EXPECT_ERRNO(ioctl(ft.fd, PERF_EVENT_IOC_SET_BPF, p0), EEXIST);
	EXPECT_ERRNO(ioctl(ft.fd, PERF_EVENT_IOC_SET_BPF, p1), EEXIST);
	EXPECT_ERRNO(pa_bpf_perf_link(p0, ft.fd), EEXIST);
	stats = pa_bpf_enable_stats();

	pa_fault_thread_run(&ft);
	EXPECT_EQ(pa_bpf_run_cnt(p1), N);
	EXPECT_EQ(pa_bpf_run_cnt(p0), 0);
	EXPECT_EQ(pa_read_one(ft.fd), N);
	EXPECT_EQ(pa_fault_thread_samples(&ft, &attr, &r, 0, 1), N);
	close(stats);
	pa_ring_unmap(&r);
	close(ft.fd);
	close(ft.warm_fd);
	close(p0);
	close(p1);
}
