#include "perfabi.h"

#include <sched.h>

#define STACK_DUMP	128	/* sample_stack_user: a multiple of 8, <= PA_FRAME_STACK */

static struct {
	uint64_t before, after;
	struct pa_frame out, warm;
} w;

/* In the thread, the event open but disabled: no sample. */
static void prep(void *arg)
{
	(void)arg;
	memset(&w.out, 0, sizeof(w.out));
	pa_frame_call(&w.warm, (const void *)pa_frame_getppid_stub, PA_FRAME_DI);
	(void)pa_clock_ns(CLOCK_MONOTONIC);
}

static void work(void *arg)
{
	(void)arg;
	w.before = pa_clock_ns(CLOCK_MONOTONIC);
	pa_frame_call(&w.out, (const void *)pa_frame_getppid_stub, PA_FRAME_DI);
	w.after = pa_clock_ns(CLOCK_MONOTONIC);
}

/*
 * A syscall-entry tracepoint is submitted with the syscall's user
 * registers: its sample's ip, user callchain, REGS_USER, REGS_INTR and
 * user stack all describe the syscall instruction's user frame. Opened
 * in a thread that is not the main thread; every register asked has a
 * value set right before the syscall.
 */
PERFABI_CASE(
	.assertion = "a sample of tracepoint syscalls:sys_enter_getppid with IDENTIFIER|IP|TID|TIME|ID|CALLCHAIN|REGS_USER|STACK_USER|WEIGHT_STRUCT|DATA_SRC|TRANSACTION|REGS_INTR, opened in a thread that is not the main thread, holds in the documented order {identifier, ip = the address after the syscall instruction, pid/tid, time, id, callchain {PERF_CONTEXT_USER, ip, the return address at rbp + 8}, regs_user {ABI_64, the user registers at the syscall in bit order}, stack_user {size as asked, the bytes at the user sp, dyn_size = size}, weight 0, data_src PERF_MEM_NA, transaction 0, regs_intr {ABI_64, the same user registers for its own mask}}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE layout; kernel/trace/trace_syscalls.c perf_syscall_enter(): perf_trace_buf_submit(..., regs, ...) with the syscall's pt_regs; kernel/events/core.c perf_prepare_sample(), perf_sample_regs_user(), perf_sample_regs_intr(), perf_output_sample_ustack(); arch/x86/include/uapi/asm/perf_regs.h",
	.alone = true,
	.covers = "record.SAMPLE type.TRACEPOINT sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ID sample.CALLCHAIN sample.REGS_USER sample.STACK_USER sample.WEIGHT_STRUCT sample.DATA_SRC sample.TRANSACTION sample.REGS_INTR attr.sample_regs_user attr.sample_regs_intr attr.sample_stack_user attr.exclude_callchain_kernel attr.use_clockid attr.clockid",
	.min_kernel = "5.12",	/* WEIGHT_STRUCT */
	.tracefs = true,
) {
	long id_tp;
	struct perf_event_attr attr;
	int want = pa_expected_errno(PA_NEED_KERNEL);
	const struct perf_event_header *h;
	uint64_t ip;
	struct pa_thread_event te;
	struct pa_sample s;
	int cpu, n = 0;

	if (pa_frame_unsupported())
		pa_skip("%s", pa_frame_unsupported());
	if (want)
		pa_skip("a tracepoint sample counts the kernel: needs paranoid < 2 or CAP_PERFMON (%s)",
			pa_context_string());
	if (pa_lockdown_confidentiality())
		pa_skip("kernel lockdown (confidentiality) forbids PERF_SAMPLE_REGS_INTR");
	id_tp = pa_tp_id_or_skip("syscalls", "sys_enter_getppid");
	attr = pa_tp_attr((uint64_t)id_tp);
	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CALLCHAIN |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
			   PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC |
			   PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR;
	attr.exclude_callchain_kernel = 1;
	/* x86-64: BX DX SI DI BP SP IP R8 R9 R10 for REGS_USER; DI SP IP R10
	 * for REGS_INTR */
	attr.sample_regs_user = 1ULL << 1 | 1ULL << 3 | 1ULL << 4 | 1ULL << 5 |
				1ULL << 6 | 1ULL << 7 | 1ULL << 8 | 1ULL << 16 |
				1ULL << 17 | 1ULL << 18;
	attr.sample_regs_intr = 1ULL << 5 | 1ULL << 7 | 1ULL << 8 | 1ULL << 18;
	attr.sample_stack_user = STACK_DUMP;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	pa_thread_event_start(&te, &attr, 8, prep, work, NULL);
	pa_thread_event_run(&te);
	EXPECT_EQ(w.out.rax, (uint64_t)getppid());
	ip = (uint64_t)(uintptr_t)pa_frame_getppid_ip();

	while ((h = pa_ring_next(&te.r))) {
		const struct pa_frame *o = &w.out;

		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		/* header, 5 u64 fields, callchain {nr, ips}, regs_user {abi,
		 * 10 regs}, stack {size, data, dyn_size}, weight, data_src,
		 * txn, regs_intr {abi, 4 regs} */
		EXPECT_EQ((size_t)h->size, sizeof(*h) + 5 * 8 +
			  8 + 8 * (size_t)s.var.callchain_nr + 8 + 10 * 8 +
			  8 + STACK_DUMP + 8 + 3 * 8 + 8 + 4 * 8);
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.identifier, te.id);
		EXPECT_EQ(s.ip, ip);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)te.th.tid);
		EXPECT_GE(s.time, w.before);
		EXPECT_LE(s.time, w.after);
		EXPECT_EQ(s.id, te.id);
		pa_frame_expect_callchain(o, ip, s.callchain, s.var.callchain_nr);
		ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		pa_frame_expect_regs(o, PA_FRAME_DI, ip, attr.sample_regs_user,
				     s.regs_user, "regs_user");
		EXPECT_EQ(s.var.stack_size, (uint64_t)STACK_DUMP);
		EXPECT_EQ(s.stack_dyn_size, (uint64_t)STACK_DUMP);
		if (s.var.stack_size == STACK_DUMP)
			pa_frame_expect_stack(o, s.stack, STACK_DUMP);
		EXPECT_EQ(s.weight, 0u);
		EXPECT_TRUE(pa_data_src_is_na(s.data_src));
		EXPECT_EQ(s.transaction, 0u);
		ASSERT_EQ(s.var.regs_intr_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		pa_frame_expect_regs(o, PA_FRAME_DI, ip, attr.sample_regs_intr,
				     s.regs_intr, "regs_intr");
	}
	EXPECT_EQ(n, 1);
	EXPECT_EQ(pa_thread_event_end(&te), 1u);	/* the one getppid() */
}
