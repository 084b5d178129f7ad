#include "perfabi.h"

#include <stdio.h>

/*
 * kernel/events/core.c perf_event_bpf_event(): a program load emits
 * perf_event_bpf_emit_ksymbols(prog, PERF_BPF_EVENT_PROG_LOAD), its
 * unload (the last reference dropped: close() of its only fd, from
 * bpf_prog_put() in the closing task) the same with unregister set:
 * PERF_RECORD_KSYMBOL {addr = prog->bpf_func, len = prog->jited_len,
 * ksym_type BPF, flags PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, name}.
 * While loaded the symbol is in /proc/kallsyms at that address (where
 * kallsyms shows addresses to us).
 */
struct ksym_rec {
	struct perf_event_header h;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	char name[];
};

/* The address of `name` in /proc/kallsyms; 0 if absent or hidden. */
static uint64_t kallsyms_addr(const char *name)
{
	char line[512], sym[256], t;
	unsigned long long a;
	uint64_t ret = 0;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &t, sym) == 3 && !strcmp(sym, name)) {
			ret = a;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* The next KSYMBOL record named `name`, copied into *k; false if none. */
static bool find_ksym(struct pa_ring *r, const char *name, struct ksym_rec *k)
{
	const struct perf_event_header *h;

	while ((h = pa_ring_find(r, PERF_RECORD_KSYMBOL))) {
		const struct ksym_rec *x = (const struct ksym_rec *)h;

		if (!strcmp(x->name, name)) {
			EXPECT_EQ(h->size, (sizeof(*x) + strlen(name) + 1 + 7) / 8 * 8);
			*k = *x;
			return true;
		}
	}
	return false;
}

PERFABI_CASE(
	.assertion = "attr.ksymbol: unloading a BPF program (closing its only fd) produces PERF_RECORD_KSYMBOL {addr, len, ksym_type PERF_RECORD_KSYMBOL_TYPE_BPF, flags PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, name} with the addr, len and name \"bpf_prog_<tag>_<name>\" of the load's register record (flags 0), whose addr is the symbol's /proc/kallsyms address",
	.ref = "perf_event_open(2), ksymbol (5.1): \"enables recording of PERF_RECORD_KSYMBOL records when a kernel symbol is registered or unregistered\"; include/uapi/linux/perf_event.h PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER; kernel/events/core.c perf_event_bpf_emit_ksymbols()",
	.alone = true,
	.covers = "attr.ksymbol record.KSYMBOL",
	.features = "bpf",
	.min_kernel = "5.1",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct ksym_rec reg, unreg;
	char want[64];
	bool kallsyms;
	long jited_len;
	struct pa_ring r;
	uint64_t kaddr;
	uint32_t id = 0;
	uint8_t tag[8];
	int fd, pfd;

	/* the symbol is registered (named, and so recorded by name) for a
	 * JITed program only: bpf_prog_kallsyms_add() takes fp->jited ones
	 * (pa_bpf_skip_unless_jited() after the load). /proc/kallsyms lists
	 * it only with JIT kallsyms on and hardening off
	 * (bpf_jit_kallsyms_enabled()) and shows its address only where
	 * kptr_restrict lets us: else the address is not compared */
	kallsyms = pa_sysctl_long("net/core/bpf_jit_kallsyms") == 1 &&
		   pa_sysctl_long("net/core/bpf_jit_harden") == 0;
	attr.disabled = 0;
	attr.ksymbol = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pfd = pa_bpf_load_trivial("pa_ksym_unreg", &id, tag);
	if (pfd < 0)
		pa_skip("cannot load a BPF program: %s", strerror(-pfd));
	pa_bpf_skip_unless_jited(pfd);
	jited_len = pa_bpf_jited_len(pfd);
	snprintf(want, sizeof(want), "bpf_prog_%02x%02x%02x%02x%02x%02x%02x%02x_pa_ksym_unreg",
		 tag[0], tag[1], tag[2], tag[3], tag[4], tag[5], tag[6], tag[7]);
	ASSERT_TRUE(find_ksym(&r, want, &reg));
	EXPECT_EQ(reg.ksym_type, 1u);	/* PERF_RECORD_KSYMBOL_TYPE_BPF */
	EXPECT_EQ(reg.flags, 0u);	/* register */
	EXPECT_EQ(reg.len, (uint32_t)jited_len);	/* prog->jited_len */
	kaddr = kallsyms ? kallsyms_addr(want) : 0;
	if (kaddr)
		EXPECT_EQ(reg.addr, kaddr);
	else
		pa_diag("%s: no address in /proc/kallsyms (%s)", want,
			kallsyms ? "hidden" : "net.core.bpf_jit_kallsyms not 1 or bpf_jit_harden set");
	ASSERT_FALSE(find_ksym(&r, want, &unreg));	/* no second record yet */

	ASSERT_OK(close(pfd));
	ASSERT_TRUE(find_ksym(&r, want, &unreg));
	EXPECT_EQ(unreg.ksym_type, 1u);
	EXPECT_EQ(unreg.flags, 1u);	/* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
	EXPECT_EQ(unreg.addr, reg.addr);
	EXPECT_EQ(unreg.len, reg.len);
	EXPECT_FALSE(find_ksym(&r, want, &unreg));	/* exactly one */
	if (kaddr)
		EXPECT_EQ(kallsyms_addr(want), 0u);	/* gone */
	close(fd);
}
