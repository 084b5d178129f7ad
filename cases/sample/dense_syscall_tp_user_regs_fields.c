#include "perfabi.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>

#define STACK_DUMP	128	/* sample_stack_user: a multiple of 8 */
#define M_DX		0x0d0d0d0d44444444ULL
#define M_SI		0x050505055555555aULL
#define M_DI		0x060606066666666dULL
#define M_R8		0x0808080888888888ULL
#define M_R9		0x0909090999999999ULL
#define M_R10		0x101010100a0a0a0aULL
#define M_PUSH0		0x7070707001010101ULL	/* pushed first */
#define M_PUSH1		0x7171717102020202ULL	/* at the user sp */

/* What sys_frame() saw around its getppid() syscall (offsets used by the
 * assembly below). */
struct frame_out {
	uint64_t sp;		/* 0: rsp at the syscall instruction */
	uint64_t ret;		/* 8: the address after it, where the syscall returns */
	uint64_t caller;	/* 16: sys_frame()'s own return address, at rbp + 8 */
	uint64_t bp;		/* 24: rbp at the syscall */
	uint64_t rv;		/* 32: what getppid() returned */
	unsigned char stack[STACK_DUMP];	/* 40: [sp, sp + STACK_DUMP) after it */
};
_Static_assert(offsetof(struct frame_out, stack) == 40, "asm offsets");

#if defined(__x86_64__)
/*
 * dense_sys_frame(rdi = out): a frame-pointer frame, two known quadwords
 * pushed, the argument registers rdi rsi rdx r10 r8 r9 set to known values
 * (getppid() ignores them), the syscall, then the STACK_DUMP bytes at rsp
 * copied out.
 */
__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl dense_sys_frame\n"
	"	.hidden dense_sys_frame\n"
	"	.type dense_sys_frame, @function\n"
	"dense_sys_frame:\n"
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	movq %rdi, %rbx\n"
	"	movq 8(%rbp), %rax\n"
	"	movq %rax, 16(%rbx)\n"
	"	movq %rbp, 24(%rbx)\n"
	"	movabsq $0x7070707001010101, %rax\n"
	"	pushq %rax\n"
	"	movabsq $0x7171717102020202, %rax\n"
	"	pushq %rax\n"
	"	leaq 1f(%rip), %rax\n"
	"	movq %rax, 8(%rbx)\n"
	"	movq %rsp, 0(%rbx)\n"
	"	movabsq $0x060606066666666d, %rdi\n"
	"	movabsq $0x050505055555555a, %rsi\n"
	"	movabsq $0x0d0d0d0d44444444, %rdx\n"
	"	movabsq $0x101010100a0a0a0a, %r10\n"
	"	movabsq $0x0808080888888888, %r8\n"
	"	movabsq $0x0909090999999999, %r9\n"
	"	movl $110, %eax\n"		/* __NR_getppid */
	"	syscall\n"
	"1:	movq %rax, 32(%rbx)\n"
	"	movq 0(%rbx), %rsi\n"
	"	leaq 40(%rbx), %rdi\n"
	"	movl $128, %ecx\n"
	"	rep movsb\n"
	"	addq $16, %rsp\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	"	.size dense_sys_frame, .-dense_sys_frame\n");
void dense_sys_frame(struct frame_out *out);
_Static_assert(SYS_getppid == 110, "x86-64 getppid");
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
	int fd, err, map_err;
	uint64_t id, before, after;
	struct frame_out out, warm;
	struct pa_ring r;
} w;

static void sys_frame(struct frame_out *o)
{
#if HAVE_FRAME
	dense_sys_frame(o);
#else
	(void)o;
#endif
}

static void *worker(void *arg)
{
	(void)arg;
	w.tid = (pid_t)syscall(SYS_gettid);
	w.fd = pa_perf_open(w.attr, 0, -1, -1, 0);
	if (w.fd < 0) {
		w.err = errno;
		return NULL;
	}
	if (ioctl(w.fd, PERF_EVENT_IOC_ID, &w.id) < 0)
		w.err = errno;
	w.map_err = pa_ring_try_map(&w.r, w.fd, 8);
	if (w.map_err)
		return NULL;
	pa_ring_prefault(&w.r);
	memset(&w.out, 0, sizeof(w.out));
	sys_frame(&w.warm);		/* disabled: no sample */
	(void)mono_ns();
	if (ioctl(w.fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		w.err = errno;
	w.before = mono_ns();
	sys_frame(&w.out);
	w.after = mono_ns();
	if (ioctl(w.fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
		w.err = errno;
	return NULL;
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
	.covers = "record.SAMPLE type.TRACEPOINT sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ID sample.CALLCHAIN sample.REGS_USER sample.STACK_USER sample.WEIGHT_STRUCT sample.DATA_SRC sample.TRANSACTION sample.REGS_INTR attr.sample_regs_user attr.sample_regs_intr attr.sample_stack_user attr.exclude_callchain_kernel attr.use_clockid attr.clockid",
	.min_kernel = "5.12",	/* WEIGHT_STRUCT */
	.tracefs = true,
) {
	long id_tp;
	struct perf_event_attr attr;
	int want = pa_expected_errno(PA_NEED_KERNEL);
	const struct perf_event_header *h;
	uint64_t want_src;
	struct pa_sample s;
	char lock[128] = "";
	int cpu, n = 0;
	pthread_t th;
	FILE *f;

	if (!HAVE_FRAME)
		pa_skip("the known stack frame and registers are written for x86-64 only");
	if (want)
		pa_skip("a tracepoint sample counts the kernel: needs paranoid < 2 or CAP_PERFMON (%s)",
			pa_context_string());
	f = fopen("/sys/kernel/security/lockdown", "r");
	if (f) {
		if (!fgets(lock, sizeof(lock), f))
			lock[0] = 0;
		fclose(f);
	}
	if (strstr(lock, "[integrity]") || strstr(lock, "[confidentiality]"))
		pa_skip("kernel lockdown forbids PERF_SAMPLE_REGS_INTR");
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
	w.attr = &attr;
	w.fd = -1;
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	if (w.fd < 0) {
		pa_fail("perf_event_open in the thread: %s", pa_errno_name(w.err));
		pa_abort();
	}
	ASSERT_EQ(w.map_err, 0);
	ASSERT_EQ(w.err, 0);
	ASSERT_NE(w.tid, getpid());
	EXPECT_EQ(w.out.rv, (uint64_t)getppid());
	/* PERF_MEM_S(OP|LVL|SNOOP|LOCK|TLB, NA); LVLNUM NA (0xf << 33) joined
	 * PERF_MEM_NA after 6.1 and is present by 6.12: either is allowed */
	want_src = 1ULL << 0 | 1ULL << 5 | 1ULL << 19 | 1ULL << 24 | 1ULL << 26;

	while ((h = pa_ring_next(&w.r))) {
		const struct frame_out *o = &w.out;
		uint64_t q[2];

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
		EXPECT_EQ(s.identifier, w.id);
		EXPECT_EQ(s.ip, o->ret);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)w.tid);
		EXPECT_GE(s.time, w.before);
		EXPECT_LE(s.time, w.after);
		EXPECT_EQ(s.id, w.id);
		ASSERT_GE(s.var.callchain_nr, 3u);
		EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
		EXPECT_EQ(s.callchain[1], o->ret);
		EXPECT_EQ(s.callchain[2], o->caller);
		ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		EXPECT_EQ(s.regs_user[0], (uint64_t)(uintptr_t)o);	/* rbx */
		EXPECT_EQ(s.regs_user[1], M_DX);
		EXPECT_EQ(s.regs_user[2], M_SI);
		EXPECT_EQ(s.regs_user[3], M_DI);
		EXPECT_EQ(s.regs_user[4], o->bp);
		EXPECT_EQ(s.regs_user[5], o->sp);
		EXPECT_EQ(s.regs_user[6], o->ret);
		EXPECT_EQ(s.regs_user[7], M_R8);
		EXPECT_EQ(s.regs_user[8], M_R9);
		EXPECT_EQ(s.regs_user[9], M_R10);
		EXPECT_EQ(s.var.stack_size, (uint64_t)STACK_DUMP);
		EXPECT_EQ(s.stack_dyn_size, (uint64_t)STACK_DUMP);
		if (s.var.stack_size == STACK_DUMP) {
			memcpy(q, s.stack, sizeof(q));
			EXPECT_EQ(q[0], M_PUSH1);
			EXPECT_EQ(q[1], M_PUSH0);
			EXPECT_EQ(memcmp(s.stack, o->stack, STACK_DUMP), 0);
		}
		EXPECT_EQ(s.weight, 0u);
		EXPECT_TRUE(s.data_src == want_src || s.data_src == (want_src | 0xfULL << 33));
		EXPECT_EQ(s.transaction, 0u);
		ASSERT_EQ(s.var.regs_intr_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		EXPECT_EQ(s.regs_intr[0], M_DI);
		EXPECT_EQ(s.regs_intr[1], o->sp);
		EXPECT_EQ(s.regs_intr[2], o->ret);
		EXPECT_EQ(s.regs_intr[3], M_R10);
	}
	EXPECT_EQ(n, 1);
	pa_ring_unmap(&w.r);
	close(w.fd);
}
