/* SPDX-License-Identifier: GPL-2.0 */
/* Tables that let tests/unit/test_abi.c compare harness/abi.h with the
 * build machine's <linux/perf_event.h> element by element. */
#ifndef PERFABI_ABI_TABLE_H
#define PERFABI_ABI_TABLE_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>

struct pa_abi_const { const char *name; uint64_t value; };
struct pa_abi_bit { const char *name; uint64_t word; };

/* The build machine's header (harness/abi_check.c) ... */
extern const struct pa_abi_const pa_abi_sys_consts[];
extern const size_t pa_abi_sys_nconsts;
size_t pa_abi_sys_bits(struct pa_abi_bit *out, size_t max);
/* ... and the project's own (harness/abi_ours.c). */
extern const struct pa_abi_const pa_abi_our_consts[];
extern const size_t pa_abi_our_nconsts;
size_t pa_abi_our_bits(struct pa_abi_bit *out, size_t max);

/* The flag bits at offset 40 of perf_event_attr that every supported build
 * header has. */
#define PA_ABI_BITS(B)							\
	B(disabled) B(inherit) B(pinned) B(exclusive) B(exclude_user)	\
	B(exclude_kernel) B(exclude_hv) B(exclude_idle) B(mmap) B(comm)	\
	B(freq) B(inherit_stat) B(enable_on_exec) B(task) B(watermark)	\
	B(precise_ip) B(mmap_data) B(sample_id_all) B(exclude_host)	\
	B(exclude_guest) B(exclude_callchain_kernel)			\
	B(exclude_callchain_user) B(mmap2) B(comm_exec) B(use_clockid)	\
	B(context_switch) B(write_backward) B(namespaces) B(ksymbol)	\
	B(bpf_event) B(aux_output) B(cgroup) B(text_poke) B(build_id)	\
	B(inherit_thread) B(remove_on_exec) B(sigtrap)

#define PA_ABI_ONE_BIT(f)						\
	if (n < max) {							\
		memset(&a, 0, sizeof(a));				\
		a.f = 1;						\
		out[n].name = #f;					\
		memcpy(&out[n].word, (char *)&a + 40, 8);		\
		n++;							\
	}

/* Body of pa_abi_*_bits(): set each flag bit alone and record the u64 at
 * offset 40 of the structure. */
#define PA_ABI_FILL_BITS(attr_type)					\
	size_t n = 0;							\
	attr_type a;							\
	PA_ABI_BITS(PA_ABI_ONE_BIT)					\
	return n

#endif
