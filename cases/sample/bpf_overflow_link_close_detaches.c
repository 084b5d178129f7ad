#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#define N 16

/* in the thread, between the two runs: the last reference to the link
 * goes, which detaches the program */
static void close_link(struct pa_fault_thread *ft, int i)
{
	(void)i;
	if (close(*(int *)ft->arg) < 0)
		ft->pg.err = errno;
}

PERFABI_CASE(
	.assertion = "BPF_LINK_CREATE with attach_type BPF_PERF_EVENT and a sampling software event's fd as target attaches a BPF_PROG_TYPE_PERF_EVENT program to the event as PERF_EVENT_IOC_SET_BPF does, and closing the link's only fd detaches it: while linked, N page faults at sample_period 1 run the program (r0 = 0) N times, are counted and write no sample; after the close N more faults write N samples {pid, tid = the thread, addr = each faulting address, read value N+1..2N} and do not run it",
	.ref = "include/uapi/linux/bpf.h BPF_LINK_CREATE, link_create.target_fd, BPF_PERF_EVENT; kernel/bpf/syscall.c bpf_perf_link_attach() -> perf_event_set_bpf_prog(), bpf_link_release() -> bpf_perf_link_release() -> perf_event_free_bpf_prog(); kernel/events/core.c __perf_event_overflow(); commit b89fbfbb854c (5.15)",
	.alone = true,
	.covers = "attr.sample_period sw.PAGE_FAULTS record.SAMPLE sample.TID sample.ADDR sample.READ",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type, BPF_ENABLE_STATS */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "5.15",	/* the BPF perf link */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct pa_fault_thread ft = { .between = close_link };
	struct pa_ring r;
	int prog, stats, link;

	prog = pa_bpf_load_perf_event(0);
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ;
	ft.arg = &link;
	pa_fault_thread_start(&ft, N, 2, &attr, &cattr);
	pa_ring_map(&r, ft.fd, 16);
	link = (int)ASSERT_OK(pa_bpf_perf_link(prog, ft.fd));
	stats = pa_bpf_enable_stats();

	pa_fault_thread_run(&ft);
	EXPECT_EQ(pa_bpf_run_cnt(prog), N);		/* linked for the first N only */
	EXPECT_EQ(pa_read_one(ft.fd), 2 * N);	/* all were counted */
	/* the first sample is the first fault after the close */
	EXPECT_EQ(pa_fault_thread_samples(&ft, &attr, &r, 1, (uint64_t)N + 1), N);
	close(stats);
	pa_ring_unmap(&r);
	close(ft.fd);
	close(ft.warm_fd);
	close(prog);
}
