#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/syscall.h>

#define N 16

static struct {
	struct pa_fault_pages pg;
	char *warm, *run, *after;	/* N fresh pages each */
	int warm_fd, fd, link;
} w;

static void prep(void *arg)
{
	(void)arg;
	w.warm = pa_fault_pages_prep(&w.pg, N);
	w.run = pa_fault_pages_prep(&w.pg, N);
	w.after = pa_fault_pages_prep(&w.pg, N);
}

/* the run on the counter warm_fd faults in the code and stack, so that
 * each run on fd takes exactly the N faults of its stores */
static void work(void *arg)
{
	(void)arg;
	pa_fault_pages_run(&w.pg, w.warm_fd, w.warm);
	pa_fault_pages_run(&w.pg, w.fd, w.run);
	if (close(w.link) < 0)		/* the last reference: detaches */
		w.pg.err = errno;
	pa_fault_pages_run(&w.pg, w.fd, w.after);
}

PERFABI_CASE(
	.assertion = "BPF_LINK_CREATE with attach_type BPF_PERF_EVENT and a sampling software event's fd as target attaches a BPF_PROG_TYPE_PERF_EVENT program to the event as PERF_EVENT_IOC_SET_BPF does, and closing the link's only fd detaches it: while linked, N page faults at sample_period 1 run the program (r0 = 0) N times, are counted and write no sample; after the close N more faults write N samples {pid, tid = the thread, addr = each faulting address, read value N+1..2N} and do not run it",
	.ref = "include/uapi/linux/bpf.h BPF_LINK_CREATE, link_create.target_fd, BPF_PERF_EVENT; kernel/bpf/syscall.c bpf_perf_link_attach() -> perf_event_set_bpf_prog(), bpf_link_release() -> bpf_perf_link_release() -> perf_event_free_bpf_prog(); kernel/events/core.c __perf_event_overflow(); commit b89fbfbb854c (5.15)",
	.covers = "attr.sample_period sw.PAGE_FAULTS record.SAMPLE sample.TID sample.ADDR sample.READ",
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
	int prog, stats, n = 0, other = 0;

	prog = pa_bpf_load_perf_event(0);
	pa_thread_start(&t, prep, work, NULL);
	if (!w.warm || !w.run || !w.after) {
		pa_fail("mmap in the thread: %s", pa_errno_name(w.pg.err));
		pa_abort();
	}
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR | PERF_SAMPLE_READ;
	w.fd = ASSERT_OPEN(&attr, t.tid, -1, -1, 0);
	w.warm_fd = ASSERT_OPEN(&cattr, t.tid, -1, -1, 0);
	pa_ring_map(&r, w.fd, 16);
	memset(&lc, 0, sizeof(lc));
	lc.l.prog_fd = (uint32_t)prog;
	lc.l.target_fd = (uint32_t)w.fd;
	lc.l.attach_type = 41;			/* BPF_PERF_EVENT */
	w.link = (int)ASSERT_OK(pa_sys_bpf(28 /* BPF_LINK_CREATE */, &lc));
	memset(&st, 0, sizeof(st));
	stats = (int)ASSERT_OK(pa_sys_bpf(32 /* BPF_ENABLE_STATS */, &st));

	pa_thread_run(&t);
	if (w.pg.err) {
		pa_fail("ioctl or close in the thread: %s", pa_errno_name(w.pg.err));
		pa_abort();
	}
	EXPECT_EQ(pa_bpf_run_cnt(prog), N);		/* linked for the first N only */
	EXPECT_EQ(pa_read_one(w.fd), 2 * N);	/* all were counted */
	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			other++;
			continue;
		}
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)t.tid);
		if (n < N) {
			/* the first sample is the first fault after the close */
			EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)pa_fault_pages_addr(&w.pg, w.after, n));
			EXPECT_EQ(s.read[0], (uint64_t)N + (uint64_t)n + 1);
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
	close(prog);
}
