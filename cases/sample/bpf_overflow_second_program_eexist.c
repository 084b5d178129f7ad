#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#define N 16

static struct {
	struct pa_fault_pages pg;
	char *warm, *run;	/* N fresh pages each */
	int warm_fd, fd;
} w;

static void prep(void *arg)
{
	(void)arg;
	w.warm = pa_fault_pages_prep(&w.pg, N);
	w.run = pa_fault_pages_prep(&w.pg, N);
}

/* the run on the counter warm_fd faults in the code and stack, so that the
 * run on fd takes exactly the N faults of its stores */
static void work(void *arg)
{
	(void)arg;
	pa_fault_pages_run(&w.pg, w.warm_fd, w.warm);
	pa_fault_pages_run(&w.pg, w.fd, w.run);
}

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
	struct pa_thread t;
	struct pa_sample s;
	struct pa_ring r;
	int p1, p0, stats, n = 0, other = 0;

	p1 = pa_bpf_load_perf_event(1);	/* keeps every sample */
	p0 = pa_bpf_load_perf_event(0);	/* would drop every sample */
	pa_thread_start(&t, prep, work, NULL);
	if (!w.warm || !w.run) {
		pa_fail("mmap in the thread: %s", pa_errno_name(w.pg.err));
		pa_abort();
	}
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ;
	w.fd = ASSERT_OPEN(&attr, t.tid, -1, -1, 0);
	w.warm_fd = ASSERT_OPEN(&cattr, t.tid, -1, -1, 0);
	pa_ring_map(&r, w.fd, 16);
	ASSERT_OK(ioctl(w.fd, PERF_EVENT_IOC_SET_BPF, p1));
	EXPECT_ERRNO(ioctl(w.fd, PERF_EVENT_IOC_SET_BPF, p0), EEXIST);
	EXPECT_ERRNO(ioctl(w.fd, PERF_EVENT_IOC_SET_BPF, p1), EEXIST);
	memset(&lc, 0, sizeof(lc));
	lc.l.prog_fd = (uint32_t)p0;
	lc.l.target_fd = (uint32_t)w.fd;
	lc.l.attach_type = 41;			/* BPF_PERF_EVENT */
	EXPECT_ERRNO(pa_sys_bpf(28 /* BPF_LINK_CREATE */, &lc), EEXIST);
	memset(&st, 0, sizeof(st));
	stats = (int)ASSERT_OK(pa_sys_bpf(32 /* BPF_ENABLE_STATS */, &st));

	pa_thread_run(&t);
	if (w.pg.err) {
		pa_fail("ioctl in the thread: %s", pa_errno_name(w.pg.err));
		pa_abort();
	}
	EXPECT_EQ(pa_bpf_run_cnt(p1), N);
	EXPECT_EQ(pa_bpf_run_cnt(p0), 0);
	EXPECT_EQ(pa_read_one(w.fd), N);
	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			other++;
			continue;
		}
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)t.tid);
		if (n < N) {
			EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)pa_fault_pages_addr(&w.pg, w.run, n));
			EXPECT_EQ(s.read[0], (uint64_t)n + 1);
		}
		n++;
	}
	EXPECT_EQ(n, N);
	if (other)
		pa_diag("%d records other than samples", other);
	close(stats);
	pa_ring_unmap(&r);
	close(w.fd);
	close(w.warm_fd);
	close(p0);
	close(p1);
}
