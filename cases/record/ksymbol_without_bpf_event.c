#include "perfabi.h"

/*
 * ksymbol and bpf_event are separate switches. Loading a BPF program
 * registers a kernel symbol (PERF_RECORD_KSYMBOL) and is itself a BPF event
 * (PERF_RECORD_BPF_EVENT); an event with only ksymbol set gets the first
 * and not the second. Root: loading a program needs bpf() rights. Only a
 * JITed program registers a symbol: where the interpreter runs it, the
 * case checks the missing BPF_EVENT and SKIPs.
 */
PERFABI_CASE(
	.assertion = "attr.ksymbol without attr.bpf_event: loading a BPF program produces a PERF_RECORD_KSYMBOL and no PERF_RECORD_BPF_EVENT",
	.ref = "include/uapi/linux/perf_event.h ksymbol \"include ksymbol events\", bpf_event \"include bpf events\" (5.1, 76193a94522f, 6ee52e2a3fe4); kernel/events/core.c perf_event_ksymbol_match(), perf_event_bpf_match()",
	.alone = true,
	.covers = "attr.ksymbol record.KSYMBOL",
	.features = "bpf",
	.min_kernel = "5.1",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct pa_bpf_load_seen seen;
	struct pa_ring r;

	attr.disabled = 0;
	attr.ksymbol = 1;
	pa_ring_map(&r, ASSERT_OPEN(&attr, 0, -1, -1, 0), 8);
	seen = pa_bpf_load_records(&r, "pa_attr_ksym");
	EXPECT_EQ(seen.bpf_event, 0);
	/* only a JITed program registers a kernel symbol */
	if (!seen.jited)
		pa_skip("the BPF program was not JITed (jited_prog_len 0: CONFIG_BPF_JIT off or net.core.bpf_jit_enable 0): an interpreted program registers no kernel symbol");
	EXPECT_GE(seen.ksymbol, 1);
}
