#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#define N 16

PERFABI_CASE(
	.assertion = "a sampling software event takes one BPF program: once PERF_EVENT_IOC_SET_BPF attached a BPF_PROG_TYPE_PERF_EVENT program, SET_BPF of another such program or of the same one, and BPF_LINK_CREATE (BPF_PERF_EVENT) of another, fail with EEXIST, and the first stays attached alone: N page faults at sample_period 1 run it (r0 = 1) N times and write N samples, and run the other 0 times",
	.ref = "kernel/events/core.c perf_event_set_bpf_handler(): event->prog already set -> -EEXIST, reached from PERF_EVENT_IOC_SET_BPF (__perf_event_set_bpf_prog()) and from BPF_LINK_CREATE (kernel/bpf/syscall.c bpf_perf_link_attach() -> perf_event_set_bpf_prog()), the same in 6.1 and 6.12; the man page lists no ioctl errors",
	.covers = "ioctl.SET_BPF errno.EEXIST sw.PAGE_FAULTS record.SAMPLE sample.TID sample.ADDR sample.READ",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type, BPF_ENABLE_STATS */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "5.15",	/* the BPF perf link */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	union { uint32_t type; uint8_t pad[128]; } st;	/* BPF_STATS_RUN_TIME */
	union {
		struct { uint32_t prog_fd, target_fd, attach_type, flags; } l;
		uint8_t pad[128];
	} lc;
	const struct perf_event_header *h;
	struct pa_fault_thread ft = { 0 };
	struct pa_sample s;
	struct pa_ring r;
	int p1, p0, stats, n = 0, other = 0;

	p1 = pa_bpf_load_perf_event(1);	/* keeps every sample */
	p0 = pa_bpf_load_perf_event(0);	/* would drop every sample */
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ;
	pa_fault_thread_start(&ft, N, 1, &attr, &cattr);
	pa_ring_map(&r, ft.fd, 16);
	ASSERT_OK(ioctl(ft.fd, PERF_EVENT_IOC_SET_BPF, p1));
	EXPECT_ERRNO(ioctl(ft.fd, PERF_EVENT_IOC_SET_BPF, p0), EEXIST);
	EXPECT_ERRNO(ioctl(ft.fd, PERF_EVENT_IOC_SET_BPF, p1), EEXIST);
	memset(&lc, 0, sizeof(lc));
	lc.l.prog_fd = (uint32_t)p0;
	lc.l.target_fd = (uint32_t)ft.fd;
	lc.l.attach_type = 41;			/* BPF_PERF_EVENT */
	EXPECT_ERRNO(pa_sys_bpf(28 /* BPF_LINK_CREATE */, &lc), EEXIST);
	memset(&st, 0, sizeof(st));
	stats = (int)ASSERT_OK(pa_sys_bpf(32 /* BPF_ENABLE_STATS */, &st));

	pa_fault_thread_run(&ft);
	EXPECT_EQ(pa_bpf_run_cnt(p1), N);
	EXPECT_EQ(pa_bpf_run_cnt(p0), 0);
	EXPECT_EQ(pa_read_one(ft.fd), N);
	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			other++;
			continue;
		}
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)ft.t.tid);
		if (n < N) {
			EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)pa_fault_pages_addr(&ft.pg, ft.run[0], n));
			EXPECT_EQ(s.read[0], (uint64_t)n + 1);
		}
		n++;
	}
	EXPECT_EQ(n, N);
	if (other)
		pa_diag("%d records other than samples", other);
	close(stats);
	pa_ring_unmap(&r);
	close(ft.fd);
	close(ft.warm_fd);
	close(p0);
	close(p1);
}
