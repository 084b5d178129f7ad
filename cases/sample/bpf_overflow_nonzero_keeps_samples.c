#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#define N 16

PERFABI_CASE(
	.assertion = "a BPF_PROG_TYPE_PERF_EVENT program attached with PERF_EVENT_IOC_SET_BPF to a sampling software event runs on each overflow, and a nonzero return keeps the sample: N page faults of a thread at sample_period 1 run the program N times, count N and write N samples {pid, tid = the thread, addr = each faulting address in order, read value = 1..N}",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_BPF (since Linux 4.1); kernel/events/core.c __perf_event_overflow(): a BPF_PROG_TYPE_PERF_EVENT program returning 0 (bpf_overflow_handler()) skips the output, any other value lets it through (6.1: bpf_overflow_handler() calls the original overflow handler when ret != 0); commit aa6a5f3cb2b2 (4.9)",
	.alone = true,
	.covers = "ioctl.SET_BPF attr.sample_period sw.PAGE_FAULTS record.SAMPLE sample.TID sample.ADDR sample.READ",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type, BPF_ENABLE_STATS */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "5.8",	/* BPF_ENABLE_STATS */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct pa_fault_thread ft = { 0 };
	struct pa_ring r;
	int prog, stats;

	prog = pa_bpf_load_perf_event(1);
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ;
	pa_fault_thread_start(&ft, N, 1, &attr, &cattr);
	pa_ring_map(&r, ft.fd, 16);
	ASSERT_OK(ioctl(ft.fd, PERF_EVENT_IOC_SET_BPF, prog));
	stats = pa_bpf_enable_stats();

	pa_fault_thread_run(&ft);
	EXPECT_EQ(pa_bpf_run_cnt(prog), N);
	EXPECT_EQ(pa_read_one(ft.fd), N);
	EXPECT_EQ(pa_fault_thread_samples(&ft, &attr, &r, 0, 1), N);
	close(stats);
	pa_ring_unmap(&r);
	close(ft.fd);
	close(ft.warm_fd);
	close(prog);
}
