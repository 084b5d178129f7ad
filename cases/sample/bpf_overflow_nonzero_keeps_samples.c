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
	.assertion = "a BPF_PROG_TYPE_PERF_EVENT program attached with PERF_EVENT_IOC_SET_BPF to a sampling software event runs on each overflow, and a nonzero return keeps the sample: N page faults of a thread at sample_period 1 run the program N times, count N and write N samples {pid, tid = the thread, addr = each faulting address in order, read value = 1..N}",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_BPF (since Linux 4.1); kernel/events/core.c __perf_event_overflow(): a BPF_PROG_TYPE_PERF_EVENT program returning 0 (bpf_overflow_handler()) skips the output, any other value lets it through (6.1: bpf_overflow_handler() calls the original overflow handler when ret != 0); commit aa6a5f3cb2b2 (4.9)",
	.covers = "ioctl.SET_BPF attr.sample_period sw.PAGE_FAULTS record.SAMPLE sample.TID sample.ADDR sample.READ",
	.features = "bpf",
	.root = true,		/* BPF_PROG_LOAD of a tracing type, BPF_ENABLE_STATS */
	.caps = PA_CAP(PA_CAP_SYS_ADMIN),
	.min_kernel = "5.8",	/* BPF_ENABLE_STATS */
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct perf_event_attr cattr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	union { uint32_t type; uint8_t pad[128]; } st;	/* BPF_STATS_RUN_TIME */
	const struct perf_event_header *h;
	struct pa_thread t;
	struct pa_sample s;
	struct pa_ring r;
	int prog, stats, n = 0, other = 0;

	prog = pa_bpf_load_perf_event(1);
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
	ASSERT_OK(ioctl(w.fd, PERF_EVENT_IOC_SET_BPF, prog));
	memset(&st, 0, sizeof(st));
	stats = (int)ASSERT_OK(pa_sys_bpf(32 /* BPF_ENABLE_STATS */, &st));

	pa_thread_run(&t);
	if (w.pg.err) {
		pa_fail("ioctl in the thread: %s", pa_errno_name(w.pg.err));
		pa_abort();
	}
	EXPECT_EQ(pa_bpf_run_cnt(prog), N);
	EXPECT_EQ(pa_read_one(w.fd), N);
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
	close(prog);
}
