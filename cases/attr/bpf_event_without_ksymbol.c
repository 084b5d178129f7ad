#include "perfabi.h"

/*
 * The counterpart of ksymbol_without_bpf_event: with only bpf_event set, a
 * BPF program load gives PERF_RECORD_BPF_EVENT (PERF_BPF_EVENT_PROG_LOAD,
 * the program's id) and no PERF_RECORD_KSYMBOL.
 */
struct bpf_rec {
	struct perf_event_header header;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

PERFABI_CASE(
	.assertion = "attr.bpf_event without attr.ksymbol: loading a BPF program produces a PERF_RECORD_BPF_EVENT of type PROG_LOAD (1) with the program's id, and no PERF_RECORD_KSYMBOL",
	.ref = "include/uapi/linux/perf_event.h bpf_event \"include bpf events\", PERF_RECORD_BPF_EVENT, PERF_BPF_EVENT_PROG_LOAD (5.1, 6ee52e2a3fe4); kernel/events/core.c perf_event_bpf_match()",
	.covers = "attr.bpf_event record.BPF_EVENT",
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
	attr.bpf_event = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 8);
	prog = pa_bpf_load_trivial("pa_attr_bpfev", &id, tag);
	if (prog < 0)
		pa_skip("cannot load a BPF program: %s", pa_errno_name(-prog));
	while ((h = pa_ring_next(&r))) {
		nk += h->type == PERF_RECORD_KSYMBOL;
		if (h->type == PERF_RECORD_BPF_EVENT) {
			const struct bpf_rec *b = (const void *)h;

			if (b->type == 1 && b->id == id)
				nb++;
		}
	}
	EXPECT_EQ(nb, 1);
	EXPECT_EQ(nk, 0);
	close(prog);
	pa_ring_unmap(&r);
	close(fd);
}
