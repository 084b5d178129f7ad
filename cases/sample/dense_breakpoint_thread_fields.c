#include "perfabi.h"

#include <sched.h>

#define N_WRITES 8

extern char __executable_start[], etext[];

static volatile uint64_t target __attribute__((aligned(8)));

static struct {
	uint64_t ip[N_WRITES], before[N_WRITES], after[N_WRITES];
} w;

/* In the thread, the event open but disabled. */
static void prep(void *arg)
{
	(void)arg;
	(void)pa_clock_ns(CLOCK_MONOTONIC);
	pa_store_u64_ip_after(&target, 0);		/* fault in the text: not watched yet */
}

/* The thread watches its own writes: pid 0 opened in it is this thread. */
static void work(void *arg)
{
	(void)arg;
	for (int i = 0; i < N_WRITES; i++) {
		w.before[i] = pa_clock_ns(CLOCK_MONOTONIC);
		w.ip[i] = pa_store_u64_ip_after(&target, (uint64_t)i + 1);
		w.after[i] = pa_clock_ns(CLOCK_MONOTONIC);
	}
}

/*
 * A write watchpoint sampled on every hit, opened in a second thread, with
 * IDENTIFIER|IP|TID|TIME|ADDR|ID|STREAM_ID|CPU|PERIOD|READ: one sample per
 * write, each field checked against a value only it can have.
 */
PERFABI_CASE(
	.assertion = "a HW_BREAKPOINT_W watchpoint with sample_period 1 opened in a thread that is not the main thread writes exactly one sample per write holding, in the documented order, {identifier = id, ip (x86: the instruction after the store), pid = getpid(), tid = the thread's gettid(), time between clock readings around the write, addr = bp_addr, id, stream_id = id, cpu = the pinned CPU, res 0, period 1, read_format {writes so far, id}}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE layout; PERF_SAMPLE_ADDR \"usually the address of a tracepoint, breakpoint, or software event\"; kernel/events/core.c perf_bp_event(): perf_sample_data_init(&sample, bp->attr.bp_addr, 0); Intel SDM vol. 3 17.3.1.2: data breakpoints are traps",
	.alone = true,
	.covers = "record.SAMPLE type.BREAKPOINT attr.bp_addr sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ADDR sample.ID sample.STREAM_ID sample.CPU sample.PERIOD sample.READ read_format.ID attr.use_clockid attr.clockid",
	.min_kernel = "4.1",	/* use_clockid; IDENTIFIER is 3.12 */
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	const struct perf_event_header *h;
	struct pa_sample s;
	struct pa_thread_event te;
	int cpu, n = 0;

	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));		/* the thread inherits it */
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			PERF_SAMPLE_READ;
	a.read_format = PERF_FORMAT_ID;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	pa_thread_event_start(&te, &a, 8, prep, work, NULL);
	pa_thread_event_run(&te);

	while ((h = pa_ring_next(&te.r))) {
		if (h->type == PERF_RECORD_THROTTLE)
			pa_throttled_in_burst(N_WRITES);
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		/* header + 9 u64 fields + read_format {value, id} */
		EXPECT_EQ(h->size, sizeof(*h) + 9 * 8 + 2 * 8);
		if (!pa_sample_parse(&a, h, &s))
			pa_abort();
		if (n < N_WRITES) {
			EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
			EXPECT_EQ(s.identifier, te.id);
			if (w.ip[n]) {
				EXPECT_EQ(s.ip, w.ip[n]);
			} else {
				EXPECT_GE(s.ip, (uint64_t)(uintptr_t)__executable_start);
				EXPECT_LT(s.ip, (uint64_t)(uintptr_t)etext);
			}
			EXPECT_EQ(s.pid, (uint32_t)getpid());
			EXPECT_EQ(s.tid, (uint32_t)te.th.tid);
			EXPECT_GE(s.time, w.before[n]);
			EXPECT_LE(s.time, w.after[n]);
			EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)&target);
			EXPECT_EQ(s.id, te.id);
			EXPECT_EQ(s.stream_id, te.id);
			EXPECT_EQ(s.cpu, (uint32_t)cpu);
			EXPECT_EQ(s.res, 0u);
			EXPECT_EQ(s.period, 1u);
			EXPECT_EQ(s.read[0], (uint64_t)n + 1);
			EXPECT_EQ(s.read[1], te.id);
		}
		n++;
	}
	EXPECT_EQ(n, N_WRITES);
	EXPECT_EQ(pa_thread_event_end(&te), N_WRITES);
}
