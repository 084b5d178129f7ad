// SPDX-License-Identifier: GPL-2.0
/*
 * Compile-time agreement between harness/abi_struct.h and the build machine's
 * <linux/perf_event.h>: every field the system header has must sit at the
 * same offset with the same size. Fields newer than the system header are
 * skipped by the header's own PERF_ATTR_SIZE_VER* markers.
 */
#include <linux/perf_event.h>
#include <linux/hw_breakpoint.h>
#include <string.h>
#include "abi_table.h"

#define PA_TAG_ATTR		pa_our_attr
#define PA_TAG_HEADER		pa_our_header
#define PA_TAG_MMAP_PAGE	pa_our_mmap_page
#include "abi_struct.h"

#define SAME(sys, ours, f)						\
	_Static_assert(offsetof(struct sys, f) == offsetof(struct ours, f) && \
		       sizeof(((struct sys *)0)->f) == sizeof(((struct ours *)0)->f), \
		       #sys "." #f " differs from harness/abi_struct.h")
#define ATTR(f) SAME(perf_event_attr, pa_our_attr, f)
#define PAGE(f) SAME(perf_event_mmap_page, pa_our_mmap_page, f)

ATTR(type); ATTR(size); ATTR(config); ATTR(sample_period); ATTR(sample_freq);
ATTR(sample_type); ATTR(read_format); ATTR(wakeup_events);
ATTR(wakeup_watermark); ATTR(bp_type); ATTR(bp_addr); ATTR(kprobe_func);
ATTR(uprobe_path); ATTR(config1); ATTR(bp_len); ATTR(kprobe_addr);
ATTR(probe_offset); ATTR(config2); ATTR(branch_sample_type);
ATTR(sample_regs_user); ATTR(sample_stack_user); ATTR(clockid);
ATTR(sample_regs_intr); ATTR(aux_watermark); ATTR(sample_max_stack);
ATTR(__reserved_2); ATTR(aux_sample_size); ATTR(sig_data);
#ifdef PERF_ATTR_SIZE_VER8
ATTR(config3);
#endif
#ifdef PERF_ATTR_SIZE_VER9
ATTR(config4);
#endif
_Static_assert(sizeof(struct perf_event_attr) <= sizeof(struct pa_our_attr),
	       "the build header knows a larger perf_event_attr than perfabi");

SAME(perf_event_header, pa_our_header, type);
SAME(perf_event_header, pa_our_header, misc);
SAME(perf_event_header, pa_our_header, size);

PAGE(version); PAGE(compat_version); PAGE(lock); PAGE(index); PAGE(offset);
PAGE(time_enabled); PAGE(time_running); PAGE(capabilities); PAGE(pmc_width);
PAGE(time_shift); PAGE(time_mult); PAGE(time_offset); PAGE(time_zero);
PAGE(size); PAGE(time_cycles); PAGE(time_mask); PAGE(data_head);
PAGE(data_tail); PAGE(data_offset); PAGE(data_size); PAGE(aux_head);
PAGE(aux_tail); PAGE(aux_offset); PAGE(aux_size);
_Static_assert(sizeof(struct perf_event_mmap_page) == sizeof(struct pa_our_mmap_page),
	       "perf_event_mmap_page size differs");

#define X(n) { #n, (uint64_t)(n) },
#ifdef PERF_ATTR_SIZE_VER8
#define X8(n) X(n)
#else
#define X8(n)
#endif
#ifdef PERF_ATTR_SIZE_VER9
#define X9(n) X(n)
#else
#define X9(n)
#endif
const struct pa_abi_const pa_abi_sys_consts[] = {
#include "abi_consts.def"
};
const size_t pa_abi_sys_nconsts = sizeof(pa_abi_sys_consts) / sizeof(pa_abi_sys_consts[0]);

size_t pa_abi_sys_bits(struct pa_abi_bit *out, size_t max)
{
	PA_ABI_FILL_BITS(struct perf_event_attr);
}
