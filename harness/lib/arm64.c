// SPDX-License-Identifier: GPL-2.0
/*
 * arm64's own ABI: code whose registers and frame records are known to the
 * instruction, for the breakpoint, register and callchain cases, and the
 * user-space read of a PMUv3 counter through the control page. Everything
 * here is aarch64 code; on another architecture none of it is defined and
 * the cases that use it SKIP before they would call it.
 */
#include "internal.h"

#include <glob.h>

#if defined(__aarch64__)

/*
 * pa_arm64_regs_stub(sp_out): saves what it changes, stores its sp into
 * *sp_out, loads x0..x30 with PA_ARM64_REGVAL(n) and runs the nop at
 * pa_arm64_regs_bp with exactly those values (and that sp) in place; then
 * puts everything back and returns. x18 is free in Linux user space.
 */
__asm__(
	"	.text\n"
	"	.p2align 3\n"
	"	.globl pa_arm64_regs_stub\n"
	"	.type pa_arm64_regs_stub, %function\n"
	"pa_arm64_regs_stub:\n"
	"	stp	x29, x30, [sp, #-112]!\n"
	"	stp	x18, x19, [sp, #16]\n"
	"	stp	x20, x21, [sp, #32]\n"
	"	stp	x22, x23, [sp, #48]\n"
	"	stp	x24, x25, [sp, #64]\n"
	"	stp	x26, x27, [sp, #80]\n"
	"	str	x28, [sp, #96]\n"
	"	mov	x1, sp\n"
	"	str	x1, [x0]\n"
	"	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30\n"
	"	ldr	x\\n, =(0x5a5a000000000000 + (\\n << 40) + 0x100 + \\n)\n"
	"	.endr\n"
	"	.globl pa_arm64_regs_bp\n"
	"pa_arm64_regs_bp:\n"
	"	nop\n"
	"	ldp	x18, x19, [sp, #16]\n"
	"	ldp	x20, x21, [sp, #32]\n"
	"	ldp	x22, x23, [sp, #48]\n"
	"	ldp	x24, x25, [sp, #64]\n"
	"	ldp	x26, x27, [sp, #80]\n"
	"	ldr	x28, [sp, #96]\n"
	"	ldp	x29, x30, [sp], #112\n"
	"	ret\n"
	"	.ltorg\n"
	"	.size pa_arm64_regs_stub, . - pa_arm64_regs_stub\n");

/*
 * pa_arm64_cc_h(ret_out) -> pa_arm64_cc_g -> pa_arm64_cc_f, each with an
 * AAPCS64 frame record {fp, lr} at x29. h's record holds fp 0 (the
 * kernel's walk stops after it: a frame pointer must grow) and lr the
 * return address into h's caller, which h also stores into *ret_out.
 * pa_arm64_cc_f is f's first instruction (before its record exists),
 * pa_arm64_cc_f_body the nop after its prologue; pa_arm64_cc_ret_g and
 * pa_arm64_cc_ret_h are the return addresses of the calls in g and h.
 */
__asm__(
	"	.text\n"
	"	.p2align 3\n"
	"	.globl pa_arm64_cc_h\n"
	"	.type pa_arm64_cc_h, %function\n"
	"pa_arm64_cc_h:\n"
	"	sub	sp, sp, #32\n"
	"	stp	x29, x30, [sp, #16]\n"
	"	stp	xzr, x30, [sp]\n"
	"	str	x30, [x0]\n"
	"	mov	x29, sp\n"
	"	bl	pa_arm64_cc_g\n"
	"	.globl pa_arm64_cc_ret_h\n"
	"pa_arm64_cc_ret_h:\n"
	"	ldp	x29, x30, [sp, #16]\n"
	"	add	sp, sp, #32\n"
	"	ret\n"
	"	.size pa_arm64_cc_h, . - pa_arm64_cc_h\n"
	"	.globl pa_arm64_cc_g\n"
	"	.type pa_arm64_cc_g, %function\n"
	"pa_arm64_cc_g:\n"
	"	stp	x29, x30, [sp, #-16]!\n"
	"	mov	x29, sp\n"
	"	bl	pa_arm64_cc_f\n"
	"	.globl pa_arm64_cc_ret_g\n"
	"pa_arm64_cc_ret_g:\n"
	"	ldp	x29, x30, [sp], #16\n"
	"	ret\n"
	"	.size pa_arm64_cc_g, . - pa_arm64_cc_g\n"
	"	.globl pa_arm64_cc_f\n"
	"	.type pa_arm64_cc_f, %function\n"
	"pa_arm64_cc_f:\n"
	"	stp	x29, x30, [sp, #-16]!\n"
	"	mov	x29, sp\n"
	"	.globl pa_arm64_cc_f_body\n"
	"pa_arm64_cc_f_body:\n"
	"	nop\n"
	"	ldp	x29, x30, [sp], #16\n"
	"	ret\n"
	"	.size pa_arm64_cc_f, . - pa_arm64_cc_f\n");

/* pa_arm64_store_stub(addr, val): the one store "str x1, [x0]" at
 * pa_arm64_store_insn, then ret. */
__asm__(
	"	.text\n"
	"	.p2align 3\n"
	"	.globl pa_arm64_store_stub\n"
	"	.type pa_arm64_store_stub, %function\n"
	"pa_arm64_store_stub:\n"
	"	.globl pa_arm64_store_insn\n"
	"pa_arm64_store_insn:\n"
	"	str	x1, [x0]\n"
	"	ret\n"
	"	.size pa_arm64_store_stub, . - pa_arm64_store_stub\n");

#define PA_PMEV(n) case (n) + 1: __asm__ volatile("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); break

uint64_t pa_arm64_read_counter(uint32_t index)
{
	uint64_t v = 0;

	switch (index) {
	PA_PMEV(0); PA_PMEV(1); PA_PMEV(2); PA_PMEV(3); PA_PMEV(4); PA_PMEV(5);
	PA_PMEV(6); PA_PMEV(7); PA_PMEV(8); PA_PMEV(9); PA_PMEV(10); PA_PMEV(11);
	PA_PMEV(12); PA_PMEV(13); PA_PMEV(14); PA_PMEV(15); PA_PMEV(16);
	PA_PMEV(17); PA_PMEV(18); PA_PMEV(19); PA_PMEV(20); PA_PMEV(21);
	PA_PMEV(22); PA_PMEV(23); PA_PMEV(24); PA_PMEV(25); PA_PMEV(26);
	PA_PMEV(27); PA_PMEV(28); PA_PMEV(29); PA_PMEV(30);
	case 32:
		__asm__ volatile("mrs %0, pmccntr_el0" : "=r"(v));
		break;
	default:
		pa_fail("control page index %u names no PMUv3 counter (1..31: PMEVCNTR<index-1>_EL0, 32: PMCCNTR_EL0)",
			index);
		pa_abort();
	}
	return v;
}

uint64_t pa_arm64_self_read(volatile struct perf_event_mmap_page *pc, uint32_t *index)
{
	uint32_t seq, idx;
	uint64_t count;

	do {
		seq = pc->lock;
		__asm__ volatile("" ::: "memory");
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			unsigned width = pc->pmc_width;
			int64_t pmc;

			if (width < 1 || width > 64) {
				pa_fail("control page pmc_width %u with cap_user_rdpmc set", width);
				pa_abort();
			}
			pmc = (int64_t)(pa_arm64_read_counter(idx) << (64 - width));

			count += (uint64_t)(pmc >> (64 - width));
		}
		__asm__ volatile("" ::: "memory");
	} while (pc->lock != seq);
	if (index)
		*index = idx;
	return count;
}

#endif /* __aarch64__ */

uint64_t pa_arm64_rdpmc_config1(void)
{
	glob_t g;
	char buf[64];
	unsigned bit;
	int found = 0;

#if !defined(__aarch64__)
	pa_skip("user-space counter access through config1 \"rdpmc\" is arm64's PMUv3 (format/rdpmc)");
#endif
	if (glob("/sys/bus/event_source/devices/*/format/rdpmc", 0, NULL, &g) == 0) {
		found = !pa_sysctl_read(g.gl_pathv[0], buf, sizeof(buf)) &&
			sscanf(buf, "config1:%u", &bit) == 1 && bit < 64;
		globfree(&g);
	}
	if (!found)
		pa_skip("no PMU here has a \"rdpmc\" format term in config1 (arm64 PMUv3, 5.17+: format/rdpmc config1:1)");
	if (pa_sysctl_read("kernel/perf_user_access", buf, sizeof(buf)))
		pa_skip("no /proc/sys/kernel/perf_user_access here (arm64 PMUv3, 5.17+)");
	return 1ULL << bit;
}
