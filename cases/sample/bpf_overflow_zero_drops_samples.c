#include "perfabi.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define N 16

static struct {
	long psz;
	char *warm, *run;	/* N fresh pages each */
	int warm_fd, fd;
	int err;
} w;

static char *at(char *p, int i)
{
	return p + (size_t)w.psz * (size_t)i + 8 * (size_t)i + 3;
}

static char *fresh_pages(void)
{
	size_t len = (size_t)w.psz * N;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		w.err = errno;
		return NULL;
	}
	(void)madvise(p, len, MADV_NOHUGEPAGE);	/* one fault per page */
	return p;
}

static void prep(void *arg)
{
	(void)arg;
	w.psz = sysconf(_SC_PAGESIZE);
	w.warm = fresh_pages();
	w.run = fresh_pages();
}

/* ENABLE, one store into each of the N pages, DISABLE: run once on a
 * counter to fault in this code and stack, so that the measured run takes
 * exactly the N faults of its stores. */
static __attribute__((noinline)) void faults(int fd, char *p)
{
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		w.err = errno;
	for (int i = 0; i < N; i++)
		*(volatile char *)at(p, i) = 1;
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
		w.err = errno;
}

static void work(void *arg)
{
	(void)arg;
	faults(w.warm_fd, w.warm);
	faults(w.fd, w.run);
}

PERFABI_CASE(
	.assertion = "a BPF_PROG_TYPE_PERF_EVENT program attached with PERF_EVENT_IOC_SET_BPF to a sampling software event runs on each overflow, and a return of 0 drops the sample but not the count: N page faults of a thread at sample_period 1 run the program N times and count N, and the ring receives no sample",
	.ref = "perf_event_open(2), PERF_EVENT_IOC_SET_BPF (since Linux 4.1); kernel/events/core.c __perf_event_overflow(): a BPF_PROG_TYPE_PERF_EVENT program returning 0 (bpf_overflow_handler()) skips the output (6.1: bpf_overflow_handler() returns before the original overflow handler when ret == 0), after perf_swevent_event() added the fault to the count; commit aa6a5f3cb2b2 (4.9)",
	.covers = "ioctl.SET_BPF attr.sample_period sw.PAGE_FAULTS record.SAMPLE",
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
	struct pa_ring r;
	int prog, stats, n = 0, other = 0;

	prog = pa_bpf_load_perf_event(0);
	pa_thread_start(&t, prep, work, NULL);
	if (!w.warm || !w.run) {
		pa_fail("mmap in the thread: %s", pa_errno_name(w.err));
		pa_abort();
	}
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR;
	w.fd = ASSERT_OPEN(&attr, t.tid, -1, -1, 0);
	w.warm_fd = ASSERT_OPEN(&cattr, t.tid, -1, -1, 0);
	pa_ring_map(&r, w.fd, 16);
	ASSERT_OK(ioctl(w.fd, PERF_EVENT_IOC_SET_BPF, prog));
	memset(&st, 0, sizeof(st));
	stats = (int)ASSERT_OK(pa_sys_bpf(32 /* BPF_ENABLE_STATS */, &st));

	pa_thread_run(&t);
	if (w.err) {
		pa_fail("ioctl in the thread: %s", pa_errno_name(w.err));
		pa_abort();
	}
	EXPECT_EQ(pa_bpf_run_cnt(prog), N);		/* the program saw every overflow */
	EXPECT_EQ(pa_read_one(w.fd), N);	/* every fault was counted */
	while ((h = pa_ring_next(&r))) {
		if (h->type == PERF_RECORD_SAMPLE)
			n++;
		else
			other++;
	}
	EXPECT_EQ(n, 0);			/* and none was written */
	if (other)
		pa_diag("%d records other than samples", other);
	close(stats);
	pa_ring_unmap(&r);
	close(w.fd);
	close(w.warm_fd);
	close(prog);
}
