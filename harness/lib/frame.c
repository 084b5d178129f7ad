// SPDX-License-Identifier: GPL-2.0
/*
 * A user frame whose every register and stack word is known, for the
 * sample cases that check REGS_USER, REGS_INTR, STACK_USER and the user
 * callchain exactly (see struct pa_frame in perfabi.h). x86-64 only.
 */
#include "perfabi.h"

#include <sys/mman.h>
#include <sys/syscall.h>

_Static_assert(offsetof(struct pa_frame, stack) == 40, "asm offsets");
_Static_assert(PA_FRAME_STACK == 1024, "asm copy length");

#if defined(__x86_64__)
/*
 * pa_frame_enter(out = rdi, stub = rsi, arg = rdx): a frame-pointer
 * frame (rbx holds out), PA_FRAME_PUSH0..3 pushed, rax rcx rdx rsi r8 r9
 * r10 set to the PA_FRAME_* values, rdi = arg, then "call *stub"; after
 * it, rax and the PA_FRAME_STACK bytes at the stub's rsp are copied out.
 */
__asm__(
	"	.text\n"
	"	.p2align 4\n"
	"	.globl pa_frame_enter\n"
	"	.hidden pa_frame_enter\n"
	"	.type pa_frame_enter, @function\n"
	"pa_frame_enter:\n"
	"	pushq %rbp\n"
	"	movq %rsp, %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	movq %rdi, %rbx\n"
	"	movq 8(%rbp), %rax\n"
	"	movq %rax, 16(%rbx)\n"		/* caller: the return address at rbp + 8 */
	"	movq %rbp, 24(%rbx)\n"		/* bp */
	"	movq %rsi, %r11\n"
	"	movq %rdx, %rdi\n"
	"	movabsq $0x7070707001010101, %rax\n"
	"	pushq %rax\n"
	"	movabsq $0x7171717102020202, %rax\n"
	"	pushq %rax\n"
	"	movabsq $0x7272727203030303, %rax\n"
	"	pushq %rax\n"
	"	movabsq $0x7373737304040404, %rax\n"
	"	pushq %rax\n"
	"	leaq 1f(%rip), %rax\n"
	"	movq %rax, 8(%rbx)\n"		/* ret: what the call pushes */
	"	leaq -8(%rsp), %rax\n"
	"	movq %rax, 0(%rbx)\n"		/* sp: the stub's rsp */
	"	movabsq $0x0a0a0a0a11111111, %rax\n"
	"	movabsq $0x0c0c0c0c33333333, %rcx\n"
	"	movabsq $0x0d0d0d0d44444444, %rdx\n"
	"	movabsq $0x050505055555555a, %rsi\n"
	"	movabsq $0x0808080888888888, %r8\n"
	"	movabsq $0x0909090999999999, %r9\n"
	"	movabsq $0x101010100a0a0a0a, %r10\n"
	"	call *%r11\n"
	"1:	movq %rax, 32(%rbx)\n"
	"	movq 0(%rbx), %rsi\n"
	"	leaq 40(%rbx), %rdi\n"
	"	movl $1024, %ecx\n"
	"	rep movsb\n"
	"	addq $32, %rsp\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	"	.size pa_frame_enter, .-pa_frame_enter\n"
	/* the uprobe target: not push %rbp or endbr64 first, so no kernel
	 * takes a hit for a function entry (is_uprobe_at_func_entry()) */
	"	.p2align 4\n"
	"	.globl pa_frame_probe_target\n"
	"	.type pa_frame_probe_target, @function\n"
	"pa_frame_probe_target:\n"
	"	xorl %eax, %eax\n"
	"	ret\n"
	"	.size pa_frame_probe_target, .-pa_frame_probe_target\n"
	"	.p2align 4\n"
	"	.globl pa_frame_getppid_stub\n"
	"	.type pa_frame_getppid_stub, @function\n"
	"pa_frame_getppid_stub:\n"
	"	movl $110, %eax\n"		/* __NR_getppid */
	"	syscall\n"
	"	.globl pa_frame_getppid_ret\n"
	"pa_frame_getppid_ret:\n"
	"	ret\n"
	"	.size pa_frame_getppid_stub, .-pa_frame_getppid_stub\n");
_Static_assert(SYS_getppid == 110, "x86-64 getppid");
void pa_frame_enter(struct pa_frame *out, const void *stub, uint64_t arg);
extern const char pa_frame_getppid_ret[];

/* movb $1, 8(%rdi); ret */
static const unsigned char store_code[] = { 0xc6, 0x47, 0x08, 0x01, 0xc3 };

const char *pa_frame_unsupported(void)
{
	return NULL;
}

const void *pa_frame_getppid_ip(void)
{
	return pa_frame_getppid_ret;
}

__attribute__((noinline)) void pa_frame_call(struct pa_frame *out, const void *stub,
					     uint64_t arg)
{
	/* room above the stub's rsp: the copy (and a stack sample of up to
	 * PA_FRAME_STACK bytes) stays inside this frame */
	volatile char pad[4096];

	pad[0] = pad[sizeof(pad) - 1] = 1;
	pa_frame_enter(out, stub, arg);
	__asm__ volatile("" :: "r"(pad) : "memory");
}
#else
static const unsigned char store_code[] = { 0 };

const char *pa_frame_unsupported(void)
{
	return "the known frame (harness/lib/frame.c) is written for x86-64 only";
}

void pa_frame_probe_target(void)
{
}

void pa_frame_getppid_stub(void)
{
}

const void *pa_frame_getppid_ip(void)
{
	return NULL;
}

void pa_frame_call(struct pa_frame *out, const void *stub, uint64_t arg)
{
	(void)stub;
	(void)arg;
	memset(out, 0, sizeof(*out));
}
#endif

void *pa_frame_store_stub(void)
{
	long psz = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* one base page, whatever THP does (CODE_PAGE_SIZE) */
	(void)madvise(p, (size_t)psz, MADV_NOHUGEPAGE);
	memcpy(p, store_code, sizeof(store_code));
	if (mprotect(p, (size_t)psz, PROT_READ | PROT_EXEC)) {
		int e = errno;

		munmap(p, (size_t)psz);
		errno = e;
		return NULL;
	}
	return p;
}

/* x86-64 perf_regs bits (arch/x86/include/uapi/asm/perf_regs.h) */
enum {
	R_AX = 0, R_BX = 1, R_CX = 2, R_DX = 3, R_SI = 4, R_DI = 5, R_BP = 6,
	R_SP = 7, R_IP = 8, R_R8 = 16, R_R9 = 17, R_R10 = 18,
};

static const char *const reg_name[] = {
	[R_AX] = "ax", [R_BX] = "bx", [R_CX] = "cx", [R_DX] = "dx",
	[R_SI] = "si", [R_DI] = "di", [R_BP] = "bp", [R_SP] = "sp",
	[R_IP] = "ip", [R_R8] = "r8", [R_R9] = "r9", [R_R10] = "r10",
};

void pa_frame_expect_regs(const struct pa_frame *f, uint64_t arg, uint64_t ip,
			  uint64_t mask, const uint64_t *regs, const char *what)
{
	char as[64], bs[64];
	int i = 0;

	for (int bit = 0; bit < 64; bit++) {
		uint64_t want;

		if (!(mask & 1ULL << bit))
			continue;
		switch (bit) {
		case R_AX: want = PA_FRAME_AX; break;
		case R_BX: want = (uint64_t)(uintptr_t)f; break;
		case R_CX: want = PA_FRAME_CX; break;
		case R_DX: want = PA_FRAME_DX; break;
		case R_SI: want = PA_FRAME_SI; break;
		case R_DI: want = arg; break;
		case R_BP: want = f->bp; break;
		case R_SP: want = f->sp; break;
		case R_IP: want = ip; break;
		case R_R8: want = PA_FRAME_R8; break;
		case R_R9: want = PA_FRAME_R9; break;
		case R_R10: want = PA_FRAME_R10; break;
		default:
			pa_fail("%s: register bit %d has no known value in the frame", what, bit);
			i++;
			continue;
		}
		snprintf(as, sizeof(as), "%s[%d] (%s)", what, i, reg_name[bit]);
		snprintf(bs, sizeof(bs), "the frame's %s", reg_name[bit]);
		pa_check_cmp(PA_VAL(regs[i]), PA_EQ, PA_VAL(want), as, bs, __FILE__, __LINE__);
		i++;
	}
}

void pa_frame_expect_callchain(const struct pa_frame *f, uint64_t ip,
			       const uint64_t *cc, uint64_t nr)
{
	ASSERT_GE(nr, 3u);
	EXPECT_EQ(cc[0], PERF_CONTEXT_USER);
	EXPECT_EQ(cc[1], ip);
	/* the stub has no frame: the walk from rbp gives the frame's own
	 * return address, at rbp + 8 */
	EXPECT_EQ(cc[2], f->caller);
}

void pa_frame_expect_stack(const struct pa_frame *f, const void *stack, uint64_t size)
{
	uint64_t q[5];

	ASSERT_GE(size, (uint64_t)sizeof(q));
	ASSERT_LE(size, (uint64_t)PA_FRAME_STACK);
	memcpy(q, stack, sizeof(q));
	EXPECT_EQ(q[0], f->ret);
	EXPECT_EQ(q[1], PA_FRAME_PUSH3);
	EXPECT_EQ(q[2], PA_FRAME_PUSH2);
	EXPECT_EQ(q[3], PA_FRAME_PUSH1);
	EXPECT_EQ(q[4], PA_FRAME_PUSH0);
	EXPECT_EQ(memcmp(stack, f->stack, size), 0);
}
