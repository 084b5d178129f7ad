#include "perfabi.h"

#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

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

static struct frame_out out, warm;

/* The stub called through the frame above, from a frame with room. */
__attribute__((noinline)) static void call_stub(volatile char *base, const void *stub,
						 struct frame_out *o)
{
#if HAVE_FRAME
	volatile char pad[2048];

	pad[0] = pad[sizeof(pad) - 1] = 1;
	dense_fault_frame(base, stub, o);
	__asm__ volatile("" :: "r"(pad) : "memory");
#else
	(void)base;
	(void)stub;
	(void)o;
#endif
}

/*
 * The registers of a user page fault, asked twice with different masks:
 * REGS_USER (the task's user registers) and REGS_INTR (the registers the
 * event interrupted, the same user frame here), with WEIGHT_STRUCT in the
 * weight slot. Each register holds a value no other register or field
 * has; the two masks differ, so the two blocks cannot be confused.
 */
PERFABI_CASE(
	.assertion = "a page-fault sample with IP|TID|ADDR|PERIOD|CALLCHAIN|REGS_USER|WEIGHT_STRUCT|DATA_SRC|TRANSACTION|REGS_INTR|DATA_PAGE_SIZE|CODE_PAGE_SIZE holds, in the documented order, {ip = the faulting instruction, pid/tid, addr, period 1, callchain {PERF_CONTEXT_USER, ip, the return address at rbp + 8}, regs_user {ABI_64, the sample_regs_user registers at the fault in bit order}, weight {var1_dw 0, var2_w 0, var3_w 0}, data_src PERF_MEM_NA, transaction 0, regs_intr {ABI_64, the sample_regs_intr registers of the same user frame in bit order}, data_page_size and code_page_size = the base page size}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE layout (ips[nr]; abi, regs[weight(mask)] for REGS_USER and REGS_INTR; union perf_sample_weight; data_src; txn; data_page_size; code_page_size); kernel/events/core.c perf_prepare_sample(): weight.full 0, data_src PERF_MEM_NA, txn 0 where the PMU set none, perf_sample_regs_intr() = the event's pt_regs; arch/x86/include/uapi/asm/perf_regs.h",
	.covers = "record.SAMPLE attr.sample_type sample.IP sample.TID sample.ADDR sample.PERIOD sample.CALLCHAIN sample.REGS_USER sample.WEIGHT_STRUCT sample.DATA_SRC sample.TRANSACTION sample.REGS_INTR sample.DATA_PAGE_SIZE sample.CODE_PAGE_SIZE attr.sample_regs_user attr.sample_regs_intr attr.exclude_callchain_kernel",
	.min_kernel = "5.12",	/* WEIGHT_STRUCT */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	const struct perf_event_header *h;
	uint64_t want_addr, want_src, rbx;
	volatile char *data, *scratch;
	unsigned char *stub;
	struct pa_sample s;
	struct pa_ring r;
	char lock[128] = "";
	int fd, matched = 0;
	FILE *f;

	if (!HAVE_FRAME)
		pa_skip("the known stack frame and registers are written for x86-64 only");
	f = fopen("/sys/kernel/security/lockdown", "r");
	if (f) {
		if (!fgets(lock, sizeof(lock), f))
			lock[0] = 0;
		fclose(f);
	}
	if (strstr(lock, "[integrity]") || strstr(lock, "[confidentiality]"))
		pa_skip("kernel lockdown forbids PERF_SAMPLE_REGS_INTR");
	data = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	scratch = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stub = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(data != MAP_FAILED && scratch != MAP_FAILED && stub != MAP_FAILED);
	(void)madvise((void *)data, (size_t)psz, MADV_NOHUGEPAGE);
	(void)madvise(stub, (size_t)psz, MADV_NOHUGEPAGE);
#if HAVE_FRAME
	memcpy(stub, stub_code, sizeof(stub_code));
#endif
	ASSERT_OK(mprotect(stub, (size_t)psz, PROT_READ | PROT_EXEC));
	(void)data[DATA_OFF];	/* present (the zero page): the store takes a write fault */

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_WEIGHT_STRUCT |
			   PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
			   PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_DATA_PAGE_SIZE |
			   PERF_SAMPLE_CODE_PAGE_SIZE;
	attr.exclude_callchain_kernel = 1;	/* a user callchain needs no kernel access */
	/* x86-64: AX CX SP IP for REGS_USER, BX DX SI DI BP SP IP for REGS_INTR */
	attr.sample_regs_user = 1ULL << 0 | 1ULL << 2 | 1ULL << 7 | 1ULL << 8;
	attr.sample_regs_intr = 1ULL << 1 | 1ULL << 3 | 1ULL << 4 | 1ULL << 5 |
				1ULL << 6 | 1ULL << 7 | 1ULL << 8;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	pa_ring_prefault(&r);
	memset(&out, 0, sizeof(out));
	call_stub(scratch + 64, stub, &warm);	/* warm up: the stub, the out buffers */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	call_stub(data + DATA_OFF - 8, stub, &out);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	want_addr = (uint64_t)(uintptr_t)(data + DATA_OFF);
	rbx = (uint64_t)(uintptr_t)&out;
	/* PERF_MEM_S(OP|LVL|SNOOP|LOCK|TLB, NA); LVLNUM NA (0xf << 33) joined
	 * PERF_MEM_NA after 6.1 and is present by 6.12: either is allowed */
	want_src = 1ULL << 0 | 1ULL << 5 | 1ULL << 19 | 1ULL << 24 | 1ULL << 26;

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)getpid());
		EXPECT_EQ(s.period, 1u);
		EXPECT_EQ(s.weight, 0u);
		EXPECT_EQ(s.transaction, 0u);
		EXPECT_TRUE(s.data_src == want_src || s.data_src == (want_src | 0xfULL << 33));
		if (s.addr != want_addr)
			continue;
		matched++;
		/* header, ip, tid, addr, period, callchain {nr, ips}, regs_user
		 * {abi, 4 regs}, weight, data_src, txn, regs_intr {abi, 7 regs},
		 * data_page_size, code_page_size */
		EXPECT_EQ((size_t)h->size, sizeof(*h) + 4 * 8 +
			  8 + 8 * (size_t)s.var.callchain_nr + 8 + 4 * 8 +
			  3 * 8 + 8 + 7 * 8 + 2 * 8);
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.ip, (uint64_t)(uintptr_t)stub);
		ASSERT_GE(s.var.callchain_nr, 3u);
		EXPECT_EQ(s.callchain[0], PERF_CONTEXT_USER);
		EXPECT_EQ(s.callchain[1], (uint64_t)(uintptr_t)stub);
		EXPECT_EQ(s.callchain[2], out.caller);
		ASSERT_EQ(s.var.regs_user_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		EXPECT_EQ(s.regs_user[0], M_AX);
		EXPECT_EQ(s.regs_user[1], M_CX);
		EXPECT_EQ(s.regs_user[2], out.sp);
		EXPECT_EQ(s.regs_user[3], (uint64_t)(uintptr_t)stub);
		ASSERT_EQ(s.var.regs_intr_abi, (uint64_t)PA_SAMPLE_REGS_ABI_64);
		EXPECT_EQ(s.regs_intr[0], rbx);
		EXPECT_EQ(s.regs_intr[1], M_DX);
		EXPECT_EQ(s.regs_intr[2], M_SI);
		EXPECT_EQ(s.regs_intr[3], want_addr - 8);	/* rdi */
		EXPECT_EQ(s.regs_intr[4], out.bp);
		EXPECT_EQ(s.regs_intr[5], out.sp);
		EXPECT_EQ(s.regs_intr[6], (uint64_t)(uintptr_t)stub);
		EXPECT_EQ(s.data_page_size, (uint64_t)psz);
		EXPECT_EQ(s.code_page_size, (uint64_t)psz);
	}
	EXPECT_EQ(matched, 1);
	pa_ring_unmap(&r);
	close(fd);
}
