// SPDX-License-Identifier: GPL-2.0
/*
 * perfabi: one event of each "hit" class, and the code that makes exactly
 * n of its events (harness/perfabi.h, "event classes driven hit by hit").
 *
 * The kernel implements the generic parts of an event (period, REFRESH,
 * the exclude bits, the times, the overflow signals) once per PMU; a
 * behaviour the man page documents for events in general is checked on
 * each class (cases/impl-table.md). For the classes whose events are
 * discrete hits made by this task -- a tracepoint, a kprobe, a uprobe, a
 * write watchpoint -- the set-up and the hits are the same in every such
 * case and live here once; the case keeps its oracle.
 */
#include "perfabi.h"

#include <sys/syscall.h>

/* the uprobe's function and its neighbour (a call that is not a hit) */
__attribute__((noinline)) void pa_hit_uprobe_fn(void);
__attribute__((noinline)) void pa_hit_uprobe_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void pa_hit_uprobe_other_fn(void);
__attribute__((noinline)) void pa_hit_uprobe_other_fn(void)
{
	__asm__ volatile("" ::: "memory");
}

/* the watched word and its neighbour, in two separate 8-byte words */
static volatile uint64_t watched[2] __attribute__((aligned(16)));

const char *pa_hit_class_name(enum pa_hit_class c)
{
	switch (c) {
	case PA_HIT_TRACEPOINT:
		return "tracepoint syscalls:sys_enter_getppid";
	case PA_HIT_KPROBE:
		return "kprobe on the getppid syscall's entry";
	case PA_HIT_UPROBE:
		return "uprobe on pa_hit_uprobe_fn()";
	case PA_HIT_WATCHPOINT:
		return "write watchpoint on an 8-byte word";
	}
	return "?";
}

struct perf_event_attr pa_hit_attr(enum pa_hit_class c, int *want)
{
	struct perf_event_attr attr;

	switch (c) {
	case PA_HIT_TRACEPOINT:
		/* the syscall tracepoints carry the user registers, so an
		 * exclude_kernel event counts every call, and any identity
		 * may open one (perf_tp_event_match(): !user_mode(regs)) */
		attr = pa_tp_attr((uint64_t)pa_tp_id_or_skip("syscalls", "sys_enter_getppid"));
		attr.exclude_kernel = 1;
		*want = pa_expected_errno(PA_NEED_SELF);
		return attr;
	case PA_HIT_KPROBE:
		/* a kprobe fires with kernel registers: exclude_kernel clear */
		attr = pa_kprobe_attr(pa_syscall_symbol("getppid"), false);
		*want = pa_kprobe_expected_errno();
		return attr;
	case PA_HIT_UPROBE:
		attr = pa_uprobe_attr((uint64_t)(uintptr_t)pa_self_exe(),
				      (uint64_t)pa_self_sym_offset("pa_hit_uprobe_fn"));
		*want = pa_expected_errno(PA_NEED_UPROBE_PMU);
		return attr;
	case PA_HIT_WATCHPOINT:
		attr = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&watched[0], HW_BREAKPOINT_LEN_8);
		*want = pa_expected_errno(PA_NEED_SELF);
		return attr;
	}
	pa_skip("no hit class %d", (int)c);
}

void pa_hit(enum pa_hit_class c, int n)
{
	for (int i = 0; i < n; i++) {
		switch (c) {
		case PA_HIT_TRACEPOINT:
		case PA_HIT_KPROBE:
			syscall(SYS_getppid);
			syscall(SYS_getpid);	/* another syscall: no hit */
			break;
		case PA_HIT_UPROBE:
			pa_hit_uprobe_fn();
			pa_hit_uprobe_other_fn();	/* not probed */
			break;
		case PA_HIT_WATCHPOINT:
			watched[0] = (uint64_t)i;
			watched[1] = (uint64_t)i;	/* the next word: not watched */
			break;
		}
	}
}
