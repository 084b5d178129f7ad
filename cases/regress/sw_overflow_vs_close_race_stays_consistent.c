#include "perfabi.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/ioctl.h>

/*
 * c9bc1753b3cc: a software event's overflow (perf_swevent_event(), here
 * a page fault) ran with only preemption disabled, so the IPI of a
 * concurrent close() (perf_event_release_kernel() ->
 * perf_remove_from_context()) could land in the middle of it and the
 * release then freed what the overflow was using (the BPF program, the
 * ring). The fix takes the overflow path with IRQs off and drops it when
 * the event is no longer ACTIVE.
 *
 * A worker thread faults pages without pause while the main thread opens
 * a period-1 page-fault sampler on it (a ring, and as root a BPF overflow
 * program), lets it count, and closes it: over and over, for a bounded
 * time. Every open, read and close must succeed, every event must have
 * counted the worker's faults, and the kernel must log nothing.
 *
 * What the bug does (a use-after-free) corrupts none of these results:
 * the case's own checks cannot see it, only the kernel log the runner
 * reads can, on a kernel built to report it (KASAN; .fix.log_only).
 */
#define BUDGET_MS	3000
#define MAX_ITERS	20000

static atomic_int stop;
static atomic_long faults;

static void *worker(void *arg)
{
	atomic_int *tid = arg;

	atomic_store(tid, gettid());
	while (!atomic_load(&stop)) {
		pa_touch_pages(4);
		atomic_fetch_add(&faults, 4);
	}
	return NULL;
}

PERFABI_CASE(
	.assertion = "closing a sampling software event while its target thread overflows it (period-1 page faults, with a ring and a BPF overflow program) never races the overflow: every open, read and close succeeds and each event counted the faults, over a bounded stress",
	.ref = "\"perf: Fix __perf_event_overflow() vs perf_remove_from_context() race\" c9bc1753b3cc (7.0, CVE-2026-23271; stable 6.12.77, 6.1.167): kernel/events/core.c perf_swevent_event() guard(irqsave) and the ACTIVE check",
	.alone = true,
	.covers = "sw.PAGE_FAULTS ioctl.SET_BPF",
	.fix = { .commit = "c9bc1753b3cc", .subject = "perf: Fix __perf_event_overflow() vs perf_remove_from_context() race", .release = "7.0", .cve = "CVE-2026-23271", .stable = "6.12.77 6.1.167",
		 .log_only = true },
	.probe = pa_probe_self_perf,
	.min_cpus = 2,
	.destructive = true,
	.xfail = {
		.from = "2.6.31",	/* 592903cdcbf6 "perf_counter: add an event_list" */
		.to = "7.0",
		.why = "perf_swevent_event() overflowed with IRQs on: a concurrent close's perf_remove_from_context() IPI could release the event under it (use-after-free of the BPF program or ring)",
		.fix = "c9bc1753b3cc",
		.fixed_in = "6.12.77 6.1.167",
	},
	.timeout = 20,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	uint64_t t0 = pa_clock_ns(CLOCK_MONOTONIC);
	atomic_int tid = 0;
	struct pa_ring r;
	pthread_t th;
	int prog = -1, iters = 0, bad = 0;

	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_ADDR;
	/* the BPF program widens the race where there is one; without BPF
	 * the close still races the overflow */
	if (pa_has_cap(PA_CAP_SYS_ADMIN) && !pa_features_missing("bpf"))
		prog = pa_bpf_load_perf_event(1);	/* 1: keep the sample; feature: handled */
	ASSERT_EQ(pthread_create(&th, NULL, worker, &tid), 0);
	while (!atomic_load(&tid))
		sched_yield();

	while (iters < MAX_ITERS &&
	       pa_clock_ns(CLOCK_MONOTONIC) - t0 < BUDGET_MS * 1000000ULL) {
		int fd = pa_perf_open(&attr, atomic_load(&tid), -1, -1, 0);
		long f0 = atomic_load(&faults);

		if (fd < 0) {
			pa_fail("iteration %d: open: %s", iters, pa_errno_name(errno));
			break;
		}
		pa_ring_map(&r, fd, 1);
		if (prog >= 0 && ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog)) {	/* feature: handled (prog < 0 without BPF) */
			pa_fail("iteration %d: SET_BPF: %s", iters, pa_errno_name(errno));
			bad++;
		}
		/* let the worker overflow it a few times: the batch after the
		 * one in progress at f0 began with the event enabled */
		while (atomic_load(&faults) < f0 + 8)
			sched_yield();
		if (pa_read_one(fd) == 0 && !bad++)
			pa_fail("iteration %d: the event counted no fault", iters);
		/* close with the ring still mapped, then unmap: the release
		 * and the ring's last reference race the worker's overflows */
		if (close(fd) && !bad++)
			pa_fail("iteration %d: close: %s", iters, pa_errno_name(errno));
		pa_ring_unmap(&r);
		iters++;
		if (bad)
			break;
	}
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	pa_diag("%d open/close cycles against %ld worker faults%s in %llu ms",
		iters, atomic_load(&faults), prog >= 0 ? " (BPF attached)" : "",
		(unsigned long long)((pa_clock_ns(CLOCK_MONOTONIC) - t0) / 1000000));
	EXPECT_GT(iters, 0);
	EXPECT_EQ(bad, 0);
	if (prog >= 0)
		close(prog);
}
