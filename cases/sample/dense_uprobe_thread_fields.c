#include "perfabi.h"

#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>

#define N_CALLS		3
#define STACK_DUMP	256	/* sample_stack_user: a multiple of 8 */
#define RAW_SIZE	20	/* struct trace_entry (8) + vaddr[0] (8), then
				 * padded so that u32 size + data is 8-aligned */
#define M_AX		0x0a0a0a0a11111111ULL
#define M_CX		0x0c0c0c0c33333333ULL
#define M_DX		0x0d0d0d0d44444444ULL
#define M_SI		0x050505055555555aULL
#define M_DI		0x060606066666666dULL
#define M_PUSH0		0x7070707001010101ULL	/* pushed first */
#define M_PUSH1		0x7171717102020202ULL	/* just above the return address */

/* What uprobe_call() saw around the call of the probed function (offsets
 * used by the assembly below). */
struct frame_out {
	uint64_t sp;		/* 0: rsp at the probed instruction */
	uint64_t ret;		/* 8: the return address the call pushed */
	uint64_t caller;	/* 16: uprobe_call()'s own return address, at rbp + 8 */
	uint64_t bp;		/* 24: rbp at the probed instruction */
	unsigned char stack[STACK_DUMP];	/* 32: [sp, sp + STACK_DUMP) after the call */
};
_Static_assert(offsetof(struct frame_out, stack) == 32, "asm offsets");

#if defined(__x86_64__)
/*
 * dense_uprobe_target: the probed function. Its first instruction is
 * neither push %rbp nor endbr64, so no kernel treats the hit as a
 * function entry (is_uprobe_at_func_entry()): the user callchain is the
 * plain frame-pointer walk from rbp on every version.
 * dense_uprobe_call(rdi = out): a frame-pointer frame, two known quadwords
 * pushed, rax rcx rdx rsi rdi rbx set to known values, the call, then the
 * STACK_DUMP bytes at the callee's rsp copied out.
 */
__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl dense_uprobe_target\n"
	"	.hidden dense_uprobe_target\n"
	"	.type dense_uprobe_target, @function\n"
	"dense_uprobe_target:\n"
	"	xorl %eax, %eax\n"
	"	ret\n"
	"	.size dense_uprobe_target, .-dense_uprobe_target\n"
	"	.p2align 4\n"
	"	.globl dense_uprobe_call\n"
	"	.hidden dense_uprobe_call\n"
	"	.type dense_uprobe_call, @function\n"
	"dense_uprobe_call:\n"
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
	"	leaq -8(%rsp), %rax\n"
	"	movq %rax, 0(%rbx)\n"
	"	movabsq $0x0a0a0a0a11111111, %rax\n"
	"	movabsq $0x0c0c0c0c33333333, %rcx\n"
	"	movabsq $0x0d0d0d0d44444444, %rdx\n"
	"	movabsq $0x050505055555555a, %rsi\n"
	"	movabsq $0x060606066666666d, %rdi\n"
	"	call dense_uprobe_target\n"
	"1:	movq 0(%rbx), %rsi\n"
	"	leaq 32(%rbx), %rdi\n"
	"	movl $256, %ecx\n"
	"	rep movsb\n"
	"	addq $16, %rsp\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	"	.size dense_uprobe_call, .-dense_uprobe_call\n");
void dense_uprobe_target(void);
void dense_uprobe_call(struct frame_out *out);
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
	uint64_t id;
	uint64_t before[N_CALLS], after[N_CALLS];
	struct frame_out out[N_CALLS + 1];
	struct pa_ring r;
} w;

static void call_probed(struct frame_out *o)
{
#if HAVE_FRAME
	dense_uprobe_call(o);
#else
	(void)o;
#endif
}

/* The thread probes its own calls: pid 0 opened in it is this thread. */
static void *worker(void *arg)
{
	(void)arg;
	w.tid = (pid_t)syscall(SYS_gettid);
	memset(w.out, 0, sizeof(w.out));
	call_probed(&w.out[N_CALLS]);	/* warm up, before the probe exists */
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
	(void)mono_ns();
	call_probed(&w.out[N_CALLS]);	/* disabled: no sample */
	if (ioctl(w.fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		w.err = errno;
	for (int i = 0; i < N_CALLS; i++) {
		w.before[i] = mono_ns();
		call_probed(&w.out[i]);
		w.after[i] = mono_ns();
	}
	if (ioctl(w.fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
		w.err = errno;
	return NULL;
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
	.covers = "record.SAMPLE type.dynamic attr.uprobe_path attr.probe_offset sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ID sample.STREAM_ID sample.CPU sample.PERIOD sample.READ sample.RAW sample.CALLCHAIN sample.REGS_USER sample.STACK_USER attr.sample_regs_user attr.sample_stack_user attr.exclude_callchain_kernel read_format.ID attr.use_clockid attr.clockid",
	.min_kernel = "4.17",	/* the uprobe PMU */
	.pmu = "uprobe",
	.probe = pa_probe_self_perf,
) {
	const char *exe = pa_self_exe();
	long off = exe ? pa_elf_sym_offset(exe, "dense_uprobe_target") : -1;
	int want = pa_expected_errno(PA_NEED_UPROBE_PMU);
	struct perf_event_attr attr;
	const struct perf_event_header *h;
	uint64_t fn, rv[2];
	struct pa_sample s;
	int cpu, n = 0;
	pthread_t th;

	if (!HAVE_FRAME)
		pa_skip("the known stack frame and registers are written for x86-64 only");
	if (want)
		pa_skip("the uprobe PMU needs %s here (%s)",
			pa_since_uprobe_sys_admin() ? "CAP_SYS_ADMIN" : "CAP_PERFMON",
			pa_context_string());
	if (off < 0)
		pa_skip("cannot find dense_uprobe_target in %s", exe ? exe : "/proc/self/exe");
#if HAVE_FRAME
	fn = (uint64_t)(uintptr_t)dense_uprobe_target;
#else
	fn = 0;
#endif
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

	while ((h = pa_ring_next(&w.r))) {
		const struct frame_out *o;
		const unsigned char *raw;
		uint64_t vaddr, q[3];
		uint32_t pad;
		uint16_t type;
		int32_t pid;

		if (h->type == PERF_RECORD_THROTTLE)
			pa_skip("the samples were throttled (perf_event_max_sample_rate too low here)");
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
		EXPECT_EQ(s.identifier, w.id);
		EXPECT_EQ(s.ip, fn);
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)w.tid);
		EXPECT_GE(s.time, w.before[n]);
		EXPECT_LE(s.time, w.after[n]);
		EXPECT_EQ(s.id, w.id);
		EXPECT_EQ(s.stream_id, w.id);
		EXPECT_EQ(s.cpu, (uint32_t)cpu);
		EXPECT_EQ(s.res, 0u);
		EXPECT_EQ(s.period, 1u);
		EXPECT_EQ(s.read[0], (uint64_t)n + 1);
		EXPECT_EQ(s.read[1], w.id);
		ASSERT_GE(s.var.callchain_nr, 3u);
		EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
		EXPECT_EQ(s.callchain[1], fn);
		/* no frame of its own yet: the walk starts at the caller's */
		EXPECT_EQ(s.callchain[2], o->caller);
		ASSERT_EQ(s.var.raw_size, (uint32_t)RAW_SIZE);
		raw = s.raw;
		memcpy(&type, raw, sizeof(type));
		memcpy(&pid, raw + 4, sizeof(pid));
		memcpy(&vaddr, raw + 8, sizeof(vaddr));
		memcpy(&pad, raw + 16, sizeof(pad));
		/* a probe made by the uprobe PMU registers no trace event
		 * type (create_local_trace_uprobe()): common_type is 0 */
		EXPECT_EQ(type, 0u);
		EXPECT_EQ(pid, (int32_t)w.tid);
		EXPECT_EQ(vaddr, fn);
		EXPECT_EQ(pad, 0u);
		ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		EXPECT_EQ(s.regs_user[0], M_AX);
		EXPECT_EQ(s.regs_user[1], (uint64_t)(uintptr_t)o);	/* rbx */
		EXPECT_EQ(s.regs_user[2], M_CX);
		EXPECT_EQ(s.regs_user[3], M_DX);
		EXPECT_EQ(s.regs_user[4], M_SI);
		EXPECT_EQ(s.regs_user[5], M_DI);
		EXPECT_EQ(s.regs_user[6], o->bp);
		EXPECT_EQ(s.regs_user[7], o->sp);
		EXPECT_EQ(s.regs_user[8], fn);
		EXPECT_EQ(s.var.stack_size, (uint64_t)STACK_DUMP);
		EXPECT_EQ(s.stack_dyn_size, (uint64_t)STACK_DUMP);
		if (s.var.stack_size == STACK_DUMP) {
			memcpy(q, s.stack, sizeof(q));
			EXPECT_EQ(q[0], o->ret);
			EXPECT_EQ(q[1], M_PUSH1);
			EXPECT_EQ(q[2], M_PUSH0);
			EXPECT_EQ(memcmp(s.stack, o->stack, STACK_DUMP), 0);
		}
		n++;
	}
	EXPECT_EQ(n, N_CALLS);
	pa_read_u64(w.fd, rv, 2);
	EXPECT_EQ(rv[0], N_CALLS);
	EXPECT_EQ(rv[1], w.id);
	pa_ring_unmap(&w.r);
	close(w.fd);
}
