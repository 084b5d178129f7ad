#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * A uprobe PMU event reaches perf through perf_swevent_event() like a
 * software event: the count goes up by one per hit, and a sampling event
 * counts period_left up from -sample_period (perf_trace_add() ->
 * perf_swevent_set_period() arms it when the event is scheduled in), so
 * the overflow, and its sample, comes at every N-th hit. A sched-in finds
 * period_left negative and leaves it alone: no context switch moves the
 * grid. PERF_SAMPLE_PERIOD is left out on purpose: with it a non-freq
 * perf_swevent_event() class samples every hit (see
 * sample/period_sw_every_event), and the N > 1 path would never run.
 *
 * data_head is read after every call (the control page only; the data
 * pages are read once the event is disabled): it must step by one record
 * exactly at calls N, 2N, ... and stay put in between.
 */
#define N	4
#define CALLS	(5 * N + 3)	/* 23: five periods and three calls more */

__attribute__((noinline)) void pa_upclk_nth_fn(void);
__attribute__((noinline)) void pa_upclk_nth_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

PERFABI_CASE(
	.assertion = "a uprobe PMU sampling event with sample_period 4 (no PERF_SAMPLE_PERIOD) writes a sample at every 4th call of the probed function and only then: over 23 calls data_head grows by one record exactly at calls 4, 8, 12, 16 and 20, giving 5 samples, each with ip = the function's address and this task's pid/tid; the event counts exactly the 23 calls",
	.ref = "perf_event_open(2), sample_period: \"A sampling event is one that generates an overflow notification every N events, where N is given by sample_period\"; uprobe_path/probe_offset (4.17); kernel/trace/trace_event_perf.c perf_trace_add() -> perf_swevent_set_period(); kernel/events/core.c perf_swevent_event() (period_left)",
	.alone = true,
	.covers = "attr.sample_period record.SAMPLE sample.IP sample.TID type.dynamic attr.uprobe_path attr.probe_offset",
	.pmu = "uprobe",
	.min_kernel = "4.17",
	.probe = pa_probe_self_perf,
) {
	const char *exe = pa_self_exe();
	long off = pa_self_sym_offset("pa_upclk_nth_fn");
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	const uint64_t fn = (uint64_t)(uintptr_t)pa_upclk_nth_fn;
	const struct perf_event_header *h;
	struct perf_event_attr attr;
	uint64_t head[CALLS + 1], rec;
	struct pa_sample s;
	struct pa_ring r;
	int fd, n = 0, bad = 0;

	if (want)
		pa_skip("the uprobe PMU needs %s here (%s)",
			pa_since_uprobe_sys_admin() ? "CAP_SYS_ADMIN" : "CAP_PERFMON",
			pa_context_string());
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	attr.sample_period = N;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	rec = pa_sample_size(&attr, NULL);
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	pa_upclk_nth_fn();		/* disabled: neither counted nor sampled */
	ASSERT_EQ(pa_read_one(fd), 0);
	ASSERT_EQ(pa_ring_head(&r), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 1; i <= CALLS; i++) {
		pa_upclk_nth_fn();
		head[i] = pa_ring_head(&r);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_upclk_nth_fn();
	EXPECT_EQ(pa_read_one(fd), CALLS);

	for (int i = 1; i <= CALLS; i++) {
		if (head[i] == (uint64_t)(i / N) * rec)
			continue;
		if (!bad++)	/* the first step off the grid says it all */
			EXPECT_EQ(head[i], (uint64_t)(i / N) * rec);
		pa_diag("after call %d: data_head %llu, expected %d record(s) of %llu bytes",
			i, (unsigned long long)head[i], i / N, (unsigned long long)rec);
	}
	EXPECT_EQ(bad, 0);
	while ((h = pa_ring_next(&r))) {
		ASSERT_EQ(h->type, PERF_RECORD_SAMPLE);
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.ip, fn);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)gettid());
		n++;
	}
	EXPECT_EQ(n, CALLS / N);
	pa_ring_unmap(&r);
	close(fd);
}
