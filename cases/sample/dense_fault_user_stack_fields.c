#include "perfabi.h"

#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#define STACK_DUMP	1024	/* sample_stack_user: a multiple of 8 */
#define DATA_OFF	0x2a8	/* where in the data page the store lands */
#define M_AX		0x0a0a0a0a11111111ULL
#define M_CX		0x0c0c0c0c33333333ULL
#define M_DX		0x0d0d0d0d44444444ULL
#define M_SI		0x050505055555555aULL
#define M_PUSH0		0x7070707001010101ULL	/* pushed first: highest */
#define M_PUSH1		0x7171717102020202ULL
#define M_PUSH2		0x7272727203030303ULL
#define M_PUSH3		0x7373737304040404ULL	/* pushed last: just above the return address */

/* What fault_frame() saw around the faulting store (offsets used by the
 * assembly below). */
struct frame_out {
	uint64_t sp;		/* 0: rsp at the store (in the stub) */
	uint64_t ret;		/* 8: the return address the call to the stub pushed */
	uint64_t caller;	/* 16: fault_frame()'s own return address, at rbp + 8 */
	uint64_t bp;		/* 24: rbp at the store */
	unsigned char stack[STACK_DUMP];	/* 32: [sp, sp + STACK_DUMP) after the store */
};
_Static_assert(offsetof(struct frame_out, stack) == 32, "asm offsets");

#if defined(__x86_64__)
/*
 * fault_frame(rdi = target - 8, rsi = stub, rdx = out): a frame-pointer
 * frame, four known quadwords pushed, then a call to the stub (one store
 * "movb $1, 8(%rdi)" and ret) with rax, rcx, rdx, rsi, rbx set to known
 * values; after it, the STACK_DUMP bytes at the stub's rsp are copied out.
 */
__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl dense_fault_frame\n"
	"	.hidden dense_fault_frame\n"
	"	.type dense_fault_frame, @function\n"
	"dense_fault_frame:\n"
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	movq %rdx, %rbx\n"
	"	movq 8(%rbp), %rax\n"
	"	movq %rax, 16(%rbx)\n"
	"	movq %rbp, 24(%rbx)\n"
	"	movabsq $0x7070707001010101, %rax\n"
	"	pushq %rax\n"
	"	movabsq $0x7171717102020202, %rax\n"
	"	pushq %rax\n"
	"	movabsq $0x7272727203030303, %rax\n"
	"	pushq %rax\n"
	"	movabsq $0x7373737304040404, %rax\n"
	"	pushq %rax\n"
	"	leaq 1f(%rip), %rax\n"
	"	movq %rax, 8(%rbx)\n"
	"	leaq -8(%rsp), %rax\n"
	"	movq %rax, 0(%rbx)\n"
	"	movq %rsi, %r11\n"
	"	movabsq $0x0a0a0a0a11111111, %rax\n"
	"	movabsq $0x0c0c0c0c33333333, %rcx\n"
	"	movabsq $0x0d0d0d0d44444444, %rdx\n"
	"	movabsq $0x050505055555555a, %rsi\n"
	"	call *%r11\n"
	"1:	movq 0(%rbx), %rsi\n"
	"	leaq 32(%rbx), %rdi\n"
	"	movl $1024, %ecx\n"
	"	rep movsb\n"
	"	addq $32, %rsp\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	"	.size dense_fault_frame, .-dense_fault_frame\n");
void dense_fault_frame(volatile char *base, const void *stub, struct frame_out *out);

/* movb $1, 8(%rdi); ret */
static const unsigned char stub_code[] = { 0xc6, 0x47, 0x08, 0x01, 0xc3 };
#define HAVE_FRAME 1
#else
#define HAVE_FRAME 0
#endif

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static struct {
	struct perf_event_attr *attr;
	pid_t tid;
	int fd, err, map_err, fault_err;
	uint64_t id, before, after;
	uint64_t stack_lo, stack_hi;	/* this thread's stack mapping */
	volatile char *data;		/* the page written */
	unsigned char *stub;		/* the page executed */
	struct pa_ring r;
} w;
static struct frame_out out, warm;

/* Call the stub from deep in this thread's stack, so the STACK_DUMP bytes
 * above its rsp are all inside the stack. */
__attribute__((noinline)) static void deep_call(volatile char *base, struct frame_out *o)
{
#if HAVE_FRAME
	volatile char pad[4096];

	pad[0] = pad[sizeof(pad) - 1] = 1;
	dense_fault_frame(base, w.stub, o);
	__asm__ volatile("" :: "r"(pad) : "memory");
#else
	(void)base;
	(void)o;
#endif
}

static void *worker(void *arg)
{
	long psz = sysconf(_SC_PAGESIZE);
	volatile char *scratch;
	pthread_attr_t pa;
	size_t ssz = 0;
	void *sa = NULL;

	(void)arg;
	w.tid = (pid_t)syscall(SYS_gettid);
	if (!pthread_getattr_np(pthread_self(), &pa)) {
		pthread_attr_getstack(&pa, &sa, &ssz);
		pthread_attr_destroy(&pa);
	}
	w.stack_lo = (uint64_t)(uintptr_t)sa;
	w.stack_hi = w.stack_lo + ssz;
	/* one-page mappings: each is mapped by a base page, whatever THP does */
	w.data = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	scratch = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	w.stub = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w.data == MAP_FAILED || scratch == MAP_FAILED || w.stub == MAP_FAILED) {
		w.fault_err = errno;
		return NULL;
	}
	(void)madvise((void *)w.data, (size_t)psz, MADV_NOHUGEPAGE);
	(void)madvise(w.stub, (size_t)psz, MADV_NOHUGEPAGE);
#if HAVE_FRAME
	memcpy(w.stub, stub_code, sizeof(stub_code));
#endif
	if (mprotect(w.stub, (size_t)psz, PROT_READ | PROT_EXEC)) {
		w.fault_err = errno;
		return NULL;
	}
	(void)w.data[DATA_OFF];	/* present (the zero page): the store takes a write fault */
	w.fd = pa_perf_open(w.attr, 0, -1, -1, 0);
	if (w.fd < 0) {
		w.err = errno;
		return NULL;
	}
	if (ioctl(w.fd, PERF_EVENT_IOC_ID, &w.id) < 0)
		w.err = errno;
	w.map_err = pa_ring_try_map(&w.r, w.fd, 16);
	if (w.map_err)
		return NULL;
	pa_ring_prefault(&w.r);
	/* warm up: the stub, this stack depth, both out buffers, the clock */
	memset(&out, 0, sizeof(out));
	deep_call(scratch + 64, &warm);
	(void)mono_ns();
	if (ioctl(w.fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		w.err = errno;
	w.before = mono_ns();
	deep_call(w.data + DATA_OFF - 8, &out);
	w.after = mono_ns();
	if (ioctl(w.fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
		w.err = errno;
	return NULL;
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
	.covers = "record.SAMPLE attr.sample_type sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ADDR sample.ID sample.STREAM_ID sample.CPU sample.PERIOD sample.READ sample.CALLCHAIN sample.REGS_USER sample.STACK_USER sample.WEIGHT sample.DATA_SRC sample.TRANSACTION sample.DATA_PAGE_SIZE sample.CODE_PAGE_SIZE attr.sample_regs_user attr.sample_stack_user attr.exclude_callchain_kernel read_format.ID attr.use_clockid attr.clockid",
	.min_kernel = "5.11",	/* DATA_PAGE_SIZE, CODE_PAGE_SIZE */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	uint64_t rv[2], last = 0, want_addr, data_src, want_src;
	struct pa_sample s;
	int cpu, n = 0, matched = 0;
	pthread_t th;

	if (!HAVE_FRAME)
		pa_skip("the known stack frame and registers are written for x86-64 only");
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
	w.attr = &attr;
	w.fd = -1;
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	if (w.fault_err) {
		pa_fail("setting up the pages: %s", pa_errno_name(w.fault_err));
		pa_abort();
	}
	if (w.fd < 0) {
		pa_fail("perf_event_open in the thread: %s", pa_errno_name(w.err));
		pa_abort();
	}
	ASSERT_EQ(w.map_err, 0);
	ASSERT_EQ(w.err, 0);
	ASSERT_NE(w.tid, getpid());
	want_addr = (uint64_t)(uintptr_t)(w.data + DATA_OFF);
	/* PERF_MEM_S(OP|LVL|SNOOP|LOCK|TLB, NA); LVLNUM NA (0xf << 33) joined
	 * PERF_MEM_NA after 6.1 and is present by 6.12: either is allowed */
	want_src = 1ULL << 0 | 1ULL << 5 | 1ULL << 19 | 1ULL << 24 | 1ULL << 26;

	while ((h = pa_ring_next(&w.r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		n++;
		EXPECT_EQ(s.identifier, w.id);
		EXPECT_EQ(s.id, w.id);
		EXPECT_EQ(s.stream_id, w.id);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)w.tid);
		EXPECT_EQ(s.cpu, (uint32_t)cpu);
		EXPECT_EQ(s.res, 0u);
		EXPECT_EQ(s.period, 1u);
		EXPECT_EQ(s.read[0], last + 1);
		EXPECT_EQ(s.read[1], w.id);
		last = s.read[0];
		EXPECT_EQ(s.weight, 0u);
		EXPECT_EQ(s.transaction, 0u);
		data_src = s.data_src;
		EXPECT_TRUE(data_src == want_src || data_src == (want_src | 0xfULL << 33));
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
		ASSERT_GE(s.var.callchain_nr, 3u);
		EXPECT_LE(s.var.callchain_nr, 1u + (uint64_t)pa_sysctl_long("kernel/perf_event_max_stack"));
		EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
		EXPECT_EQ(s.callchain[1], (uint64_t)(uintptr_t)w.stub);
		/* the stub has no frame: the walk from rbp gives the frame
		 * of fault_frame(), whose return address is at rbp + 8 */
		EXPECT_EQ(s.callchain[2], out.caller);
		ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		EXPECT_EQ(s.regs_user[0], M_AX);
		EXPECT_EQ(s.regs_user[1], (uint64_t)(uintptr_t)&out);	/* rbx */
		EXPECT_EQ(s.regs_user[2], M_CX);
		EXPECT_EQ(s.regs_user[3], M_DX);
		EXPECT_EQ(s.regs_user[4], M_SI);
		EXPECT_EQ(s.regs_user[5], want_addr - 8);		/* rdi */
		EXPECT_EQ(s.regs_user[6], out.bp);
		EXPECT_EQ(s.regs_user[7], out.sp);
		EXPECT_EQ(s.regs_user[8], (uint64_t)(uintptr_t)w.stub);
		EXPECT_GE(out.sp, w.stack_lo);
		EXPECT_LT(out.sp + STACK_DUMP, w.stack_hi);
		EXPECT_EQ(s.var.stack_size, (uint64_t)STACK_DUMP);
		EXPECT_EQ(s.stack_dyn_size, (uint64_t)STACK_DUMP);
		if (s.var.stack_size == STACK_DUMP) {
			uint64_t q[5];

			memcpy(q, s.stack, sizeof(q));
			EXPECT_EQ(q[0], out.ret);
			EXPECT_EQ(q[1], M_PUSH3);
			EXPECT_EQ(q[2], M_PUSH2);
			EXPECT_EQ(q[3], M_PUSH1);
			EXPECT_EQ(q[4], M_PUSH0);
			EXPECT_EQ(memcmp(s.stack, out.stack, STACK_DUMP), 0);
		}
		EXPECT_EQ(s.data_page_size, (uint64_t)psz);
		EXPECT_EQ(s.code_page_size, (uint64_t)psz);
	}
	EXPECT_EQ(matched, 1);
	pa_read_u64(w.fd, rv, 2);
	EXPECT_EQ(rv[1], w.id);
	EXPECT_EQ(last, rv[0]);		/* the last sample saw the final count */
	pa_diag("%d samples, count %llu", n, (unsigned long long)rv[0]);
	pa_ring_unmap(&w.r);
	close(w.fd);
}
