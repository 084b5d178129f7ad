#include "perfabi.h"

/*
 * ksymbol and bpf_event are separate switches. Loading a BPF program
 * registers a kernel symbol (PERF_RECORD_KSYMBOL) and is itself a BPF event
 * (PERF_RECORD_BPF_EVENT); an event with only ksymbol set gets the first
 * and not the second. Root: loading a program needs bpf() rights.
 */
PERFABI_CASE(
	.assertion = "attr.ksymbol without attr.bpf_event: loading a BPF program produces a PERF_RECORD_KSYMBOL and no PERF_RECORD_BPF_EVENT",
	.ref = "include/uapi/linux/perf_event.h ksymbol \"include ksymbol events\", bpf_event \"include bpf events\" (5.1, 76193a94522f, 6ee52e2a3fe4); kernel/events/core.c perf_event_ksymbol_match(), perf_event_bpf_match()",
	.covers = "attr.ksymbol record.KSYMBOL",
	.min_kernel = "5.1",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	int fd, prog, nk = 0, nb = 0;
	struct pa_ring r;
	uint32_t id;
	uint8_t tag[8];

	attr.disabled = 0;
	attr.ksymbol = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	prog = pa_bpf_load_trivial("pa_attr_ksym", &id, tag);
	if (prog < 0)
		pa_skip("cannot load a BPF program: %s", pa_errno_name(-prog));
	while ((h = pa_ring_next(&r))) {
		nk += h->type == PERF_RECORD_KSYMBOL;
		nb += h->type == PERF_RECORD_BPF_EVENT;
	}
	EXPECT_GE(nk, 1);
	EXPECT_EQ(nb, 0);
	close(prog);
	pa_ring_unmap(&r);
	close(fd);
}
