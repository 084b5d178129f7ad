#include "perfabi.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>

#define STACK_DUMP	1024	/* sample_stack_user: a multiple of 8, <= PA_FRAME_STACK */
#define DATA_OFF	0x2a8	/* where in the data page the store lands */

static struct {
	int fault_err;
	uint64_t before, after;
	uint64_t stack_lo, stack_hi;	/* this thread's stack mapping */
	volatile char *data;		/* the page written */
	volatile char *scratch;		/* the page the warm-up writes */
	unsigned char *stub;		/* the page executed */
} w;
static struct pa_frame out, warm;

/* In the thread, the event open but disabled: its stack bounds, the pages. */
static void prep(void *arg)
{
	long psz = sysconf(_SC_PAGESIZE);
	pthread_attr_t pa;
	size_t ssz = 0;
	void *sa = NULL;

	(void)arg;
	if (!pthread_getattr_np(pthread_self(), &pa)) {
		pthread_attr_getstack(&pa, &sa, &ssz);
		pthread_attr_destroy(&pa);
	}
	w.stack_lo = (uint64_t)(uintptr_t)sa;
	w.stack_hi = w.stack_lo + ssz;
	/* one-page mappings: each is mapped by a base page, whatever THP does */
	/* present (the page-cache page, read-only pte): the store takes a
	 * write (copy-on-write) fault */
	w.data = pa_cow_page(DATA_OFF);
	w.scratch = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w.stub = pa_frame_store_stub();
	if (!w.data || w.scratch == MAP_FAILED || !w.stub) {
		w.fault_err = errno;
		return;
	}
	/* warm up: the stub, this stack depth, both out buffers, the clock */
	memset(&out, 0, sizeof(out));
	pa_frame_call(&warm, w.stub, (uint64_t)(uintptr_t)(w.scratch + 64 - 8));
	(void)pa_clock_ns(CLOCK_MONOTONIC);
}

static void work(void *arg)
{
	(void)arg;
	w.before = pa_clock_ns(CLOCK_MONOTONIC);
	pa_frame_call(&out, w.stub, (uint64_t)(uintptr_t)(w.data + DATA_OFF - 8));
	w.after = pa_clock_ns(CLOCK_MONOTONIC);
}

/*
 * One page-fault sample of a thread that is not the main thread, with the
 * tail fields too: CALLCHAIN, REGS_USER, STACK_USER, WEIGHT, DATA_SRC,
 * TRANSACTION, DATA_PAGE_SIZE, CODE_PAGE_SIZE. The faulting store runs in
 * a stub page with known registers and a known stack above it, so every
 * field has an exact value no other field has.
 */
PERFABI_CASE(
	.assertion = "a page-fault sample with IDENTIFIER|IP|TID|TIME|ADDR|ID|STREAM_ID|CPU|PERIOD|READ|CALLCHAIN|REGS_USER|STACK_USER|WEIGHT|DATA_SRC|TRANSACTION|DATA_PAGE_SIZE|CODE_PAGE_SIZE from a thread that is not the main thread holds, in the documented order, {identifier, ip = the faulting instruction, pid/tid, time, addr, id, stream_id, cpu/res, period 1, read_format {count, id}, callchain {PERF_CONTEXT_USER, ip, the return address at rbp + 8}, regs_user {ABI_64, the registers at the fault in bit order}, stack_user {size as asked, the bytes at the user sp, dyn_size = size}, weight 0, data_src PERF_MEM_NA, transaction 0, data_page_size and code_page_size = the base page size of the one-page mappings written and executed}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE layout (ips[nr], abi/regs[weight(mask)], size/data[size]/dyn_size, weight, data_src, txn, data_page_size, code_page_size); kernel/events/core.c perf_prepare_sample() (weight 0, data_src PERF_MEM_NA, txn 0 where the PMU set none), perf_output_sample_ustack(), perf_get_page_size(); arch/x86/events/core.c perf_callchain_user() (frame-pointer walk from regs->bp); arch/x86/include/uapi/asm/perf_regs.h",
	.alone = true,
	.covers = "record.SAMPLE attr.sample_type sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ADDR sample.ID sample.STREAM_ID sample.CPU sample.PERIOD sample.READ sample.CALLCHAIN sample.REGS_USER sample.STACK_USER sample.WEIGHT sample.DATA_SRC sample.TRANSACTION sample.DATA_PAGE_SIZE sample.CODE_PAGE_SIZE attr.sample_regs_user attr.sample_stack_user attr.exclude_callchain_kernel read_format.ID attr.use_clockid attr.clockid",
	.min_kernel = "5.11",	/* DATA_PAGE_SIZE, CODE_PAGE_SIZE */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	uint64_t count, last = 0, want_addr;
	struct pa_thread_event te;
	struct pa_sample s;
	int cpu, n = 0, matched = 0;

	if (pa_frame_unsupported())
		pa_skip("%s", pa_frame_unsupported());
	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));		/* the thread inherits it */
	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			   PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
			   PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			   PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_DATA_PAGE_SIZE |
			   PERF_SAMPLE_CODE_PAGE_SIZE;
	attr.read_format = PERF_FORMAT_ID;
	attr.exclude_callchain_kernel = 1;	/* a user callchain needs no kernel access */
	/* x86-64 AX BX CX DX SI DI BP SP IP: bits 0..8 */
	attr.sample_regs_user = 0x1ff;
	attr.sample_stack_user = STACK_DUMP;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	pa_thread_event_start(&te, &attr, 16, prep, work, NULL);
	if (w.fault_err) {
		pa_fail("setting up the pages: %s", pa_errno_name(w.fault_err));
		pa_abort();
	}
	pa_thread_event_run(&te);
	want_addr = (uint64_t)(uintptr_t)(w.data + DATA_OFF);

	while ((h = pa_ring_next(&te.r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		n++;
		EXPECT_EQ(s.identifier, te.id);
		EXPECT_EQ(s.id, te.id);
		EXPECT_EQ(s.stream_id, te.id);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)te.th.tid);
		EXPECT_EQ(s.cpu, (uint32_t)cpu);
		EXPECT_EQ(s.res, 0u);
		EXPECT_EQ(s.period, 1u);
		EXPECT_EQ(s.read[0], last + 1);
		EXPECT_EQ(s.read[1], te.id);
		last = s.read[0];
		EXPECT_EQ(s.weight, 0u);
		EXPECT_EQ(s.transaction, 0u);
		EXPECT_TRUE(pa_data_src_is_na(s.data_src));
		if (s.addr != want_addr)
			continue;
		matched++;
		/* header, 9 u64 fields, read {value, id}, callchain {nr, ips},
		 * regs_user {abi, 9 regs}, stack {size, data, dyn_size}, weight,
		 * data_src, txn, data_page_size, code_page_size */
		EXPECT_EQ((size_t)h->size, sizeof(*h) + 9 * 8 + 2 * 8 +
			  8 + 8 * (size_t)s.var.callchain_nr + 8 + 9 * 8 +
			  8 + STACK_DUMP + 8 + 5 * 8);
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.ip, (uint64_t)(uintptr_t)w.stub);
		EXPECT_GE(s.time, w.before);
		EXPECT_LE(s.time, w.after);
		EXPECT_LE(s.var.callchain_nr, 1u + (uint64_t)pa_sysctl_long("kernel/perf_event_max_stack"));
		pa_frame_expect_callchain(&out, (uint64_t)(uintptr_t)w.stub,
					  s.callchain, s.var.callchain_nr);
		ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		pa_frame_expect_regs(&out, want_addr - 8, (uint64_t)(uintptr_t)w.stub,
				     attr.sample_regs_user, s.regs_user, "regs_user");
		EXPECT_GE(out.sp, w.stack_lo);
		EXPECT_LT(out.sp + STACK_DUMP, w.stack_hi);
		EXPECT_EQ(s.var.stack_size, (uint64_t)STACK_DUMP);
		EXPECT_EQ(s.stack_dyn_size, (uint64_t)STACK_DUMP);
		if (s.var.stack_size == STACK_DUMP)
			pa_frame_expect_stack(&out, s.stack, STACK_DUMP);
		EXPECT_EQ(s.data_page_size, (uint64_t)psz);
		EXPECT_EQ(s.code_page_size, (uint64_t)psz);
	}
	EXPECT_EQ(matched, 1);
	count = pa_thread_event_end(&te);
	EXPECT_EQ(last, count);		/* the last sample saw the final count */
	pa_diag("%d samples, count %llu", n, (unsigned long long)count);
}
