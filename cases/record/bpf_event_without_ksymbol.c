#include "perfabi.h"

/*
 * The counterpart of ksymbol_without_bpf_event: with only bpf_event set, a
 * BPF program load gives PERF_RECORD_BPF_EVENT (PERF_BPF_EVENT_PROG_LOAD,
 * the program's id) and no PERF_RECORD_KSYMBOL.
 */
PERFABI_CASE(
	.assertion = "attr.bpf_event without attr.ksymbol: loading a BPF program produces a PERF_RECORD_BPF_EVENT of type PROG_LOAD (1) with the program's id, and no PERF_RECORD_KSYMBOL",
	.ref = "include/uapi/linux/perf_event.h bpf_event \"include bpf events\", PERF_RECORD_BPF_EVENT, PERF_BPF_EVENT_PROG_LOAD (5.1, 6ee52e2a3fe4); kernel/events/core.c perf_event_bpf_match()",
	.alone = true,
	.covers = "attr.bpf_event record.BPF_EVENT",
	.features = "bpf",
	.min_kernel = "5.1",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct pa_bpf_load_seen seen;
	struct pa_ring r;

	attr.disabled = 0;
	attr.bpf_event = 1;
	pa_ring_map(&r, ASSERT_OPEN(&attr, 0, -1, -1, 0), 8);
	seen = pa_bpf_load_records(&r, "pa_attr_bpfev");
	EXPECT_EQ(seen.prog_load, 1);
	EXPECT_EQ(seen.ksymbol, 0);
}
