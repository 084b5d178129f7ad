#include "perfabi.h"

#include <sched.h>

#define N_CALLS		3
#define STACK_DUMP	256	/* sample_stack_user: a multiple of 8, <= PA_FRAME_STACK */
#define RAW_SIZE	20	/* struct trace_entry (8) + vaddr[0] (8), then
				 * padded so that u32 size + data is 8-aligned */

static struct {
	uint64_t before[N_CALLS], after[N_CALLS];
	struct pa_frame out[N_CALLS + 1];
} w;

static void call_probed(struct pa_frame *o)
{
	pa_frame_call(o, (const void *)pa_frame_probe_target, PA_FRAME_DI);
}

/* In the thread, the event open but disabled: no sample. */
static void prep(void *arg)
{
	(void)arg;
	memset(w.out, 0, sizeof(w.out));
	call_probed(&w.out[N_CALLS]);
	(void)pa_clock_ns(CLOCK_MONOTONIC);
}

static void work(void *arg)
{
	(void)arg;
	for (int i = 0; i < N_CALLS; i++) {
		w.before[i] = pa_clock_ns(CLOCK_MONOTONIC);
		call_probed(&w.out[i]);
		w.after[i] = pa_clock_ns(CLOCK_MONOTONIC);
	}
}

/*
 * A uprobe sampled on every hit in a thread that is not the main thread,
 * with IDENTIFIER|IP|TID|TIME|ID|STREAM_ID|CPU|PERIOD|READ|RAW|CALLCHAIN|
 * REGS_USER|STACK_USER: each field checked against a value only it can
 * have, the RAW entry against the uprobe's trace entry layout.
 */
PERFABI_CASE(
	.assertion = "a uprobe (the uprobe PMU) with sample_period 1 opened in a thread that is not the main thread writes one sample per call of the probed function holding, in the documented order, {identifier, ip = the function's address, pid = getpid(), tid = the thread, time between clock readings around the call, id, stream_id, cpu/res, period 1, read_format {calls so far, id}, callchain {PERF_CONTEXT_USER, ip, the return address at rbp + 8}, raw {size 20: trace_entry with common_type 0 (no trace event registered for a PMU probe), common_pid = the thread, vaddr = the function's address, zero padding}, regs_user {ABI_64, the registers at the call in bit order}, stack_user {size as asked, the bytes at sp (first the return address of the call), dyn_size = size}}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE layout and uprobe_path/probe_offset (4.17); kernel/trace/trace_uprobe.c __uprobe_perf_func(): entry->vaddr[0] = instruction_pointer(regs), size = ALIGN(esize + dsize + sizeof(u32), sizeof(u64)) - sizeof(u32), create_local_trace_uprobe() (no register_trace_event(): event.type 0), perf_tp_event() -> perf_trace_buf_update(); kernel/events/uprobes.c handle_swbp(): ip set to the probe address before the handlers; arch/x86/events/core.c perf_callchain_user()",
	.alone = true,
	.covers = "record.SAMPLE type.dynamic attr.uprobe_path attr.probe_offset sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ID sample.STREAM_ID sample.CPU sample.PERIOD sample.READ sample.RAW sample.CALLCHAIN sample.REGS_USER sample.STACK_USER attr.sample_regs_user attr.sample_stack_user attr.exclude_callchain_kernel read_format.ID attr.use_clockid attr.clockid",
	.min_kernel = "4.17",	/* the uprobe PMU */
	.pmu = "uprobe",
	.probe = pa_probe_self_perf,
) {
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "pa_frame_probe_target") : -1;
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct perf_event_attr attr;
	const struct perf_event_header *h;
	uint64_t fn;
	struct pa_sample s;
	struct pa_thread_event te;
	int cpu, n = 0;

	if (pa_frame_unsupported())
		pa_skip("%s", pa_frame_unsupported());
	if (want)
		pa_skip("the uprobe PMU needs %s here (%s)",
			pa_since_uprobe_sys_admin() ? "CAP_SYS_ADMIN" : "CAP_PERFMON",
			pa_context_string());
	if (off < 0)
		pa_skip("cannot find pa_frame_probe_target in %s", exe ? exe : "/proc/self/exe");
	fn = (uint64_t)(uintptr_t)pa_frame_probe_target;
	attr = pa_uprobe_attr((uint64_t)(uintptr_t)exe, (uint64_t)off);
	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));		/* the thread inherits it */
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |
			   PERF_SAMPLE_RAW | PERF_SAMPLE_CALLCHAIN |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr.read_format = PERF_FORMAT_ID;
	attr.exclude_callchain_kernel = 1;
	attr.sample_regs_user = 0x1ff;	/* x86-64 AX BX CX DX SI DI BP SP IP */
	attr.sample_stack_user = STACK_DUMP;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	pa_thread_event_start(&te, &attr, 8, prep, work, NULL);
	pa_thread_event_run(&te);

	while ((h = pa_ring_next(&te.r))) {
		const struct pa_frame *o;
		const unsigned char *raw;
		uint64_t vaddr;
		uint32_t pad;
		uint16_t type;
		int32_t pid;

		if (h->type == PERF_RECORD_THROTTLE)
			pa_throttled_in_burst(N_CALLS);
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		if (n >= N_CALLS) {
			n++;
			continue;
		}
		o = &w.out[n];
		/* header, 9 u64 fields, read {value, id}, callchain {nr, ips},
		 * raw {u32 size, 20 bytes}, regs_user {abi, 9 regs}, stack
		 * {size, data, dyn_size} */
		EXPECT_EQ((size_t)h->size, sizeof(*h) + 8 * 8 + 2 * 8 +
			  8 + 8 * (size_t)s.var.callchain_nr + 4 + RAW_SIZE +
			  8 + 9 * 8 + 8 + STACK_DUMP + 8);
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.identifier, te.id);
		EXPECT_EQ(s.ip, fn);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)te.th.tid);
		EXPECT_GE(s.time, w.before[n]);
		EXPECT_LE(s.time, w.after[n]);
		EXPECT_EQ(s.id, te.id);
		EXPECT_EQ(s.stream_id, te.id);
		EXPECT_EQ(s.cpu, (uint32_t)cpu);
		EXPECT_EQ(s.res, 0u);
		EXPECT_EQ(s.period, 1u);
		EXPECT_EQ(s.read[0], (uint64_t)n + 1);
		EXPECT_EQ(s.read[1], te.id);
		/* no frame of its own yet: the walk starts at the caller's */
		pa_frame_expect_callchain(o, fn, s.callchain, s.var.callchain_nr);
		ASSERT_EQ(s.var.raw_size, (uint32_t)RAW_SIZE);
		raw = s.raw;
		memcpy(&type, raw, sizeof(type));
		memcpy(&pid, raw + 4, sizeof(pid));
		memcpy(&vaddr, raw + 8, sizeof(vaddr));
		memcpy(&pad, raw + 16, sizeof(pad));
		/* a probe made by the uprobe PMU registers no trace event
		 * type (create_local_trace_uprobe()): common_type is 0 */
		EXPECT_EQ(type, 0u);
		EXPECT_EQ(pid, (int32_t)te.th.tid);
		EXPECT_EQ(vaddr, fn);
		EXPECT_EQ(pad, 0u);
		ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		pa_frame_expect_regs(o, PA_FRAME_DI, fn, attr.sample_regs_user,
				     s.regs_user, "regs_user");
		EXPECT_EQ(s.var.stack_size, (uint64_t)STACK_DUMP);
		EXPECT_EQ(s.stack_dyn_size, (uint64_t)STACK_DUMP);
		if (s.var.stack_size == STACK_DUMP)
			pa_frame_expect_stack(o, s.stack, STACK_DUMP);
		n++;
	}
	EXPECT_EQ(n, N_CALLS);
	EXPECT_EQ(pa_thread_event_end(&te), N_CALLS);
}
