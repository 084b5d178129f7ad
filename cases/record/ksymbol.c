#include "perfabi.h"

#include <stdio.h>

struct ksym_rec {
	struct perf_event_header h;
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;
	char name[];
};

PERFABI_CASE(
	.assertion = "attr.ksymbol: loading a BPF program registers a kernel symbol and produces PERF_RECORD_KSYMBOL {addr, len, ksym_type PERF_RECORD_KSYMBOL_TYPE_BPF (1), flags 0 (register), name \"bpf_prog_<tag>_<name>\"} with a kernel address and len the JITed image's (bpf_prog_info.jited_prog_len); SKIP where the program was not JITed",
	.ref = "perf_event_open(2), ksymbol (5.1): \"enables recording of PERF_RECORD_KSYMBOL records when a kernel symbol is registered or unregistered\"; kernel/bpf/core.c bpf_prog_ksym_set_name(); kernel/events/core.c perf_event_bpf_emit_ksymbols() (len = prog->jited_len, bpf_prog_info.jited_prog_len)",
	.alone = true,
	.covers = "attr.ksymbol record.KSYMBOL",
	.features = "bpf",
	.min_kernel = "5.1",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct ksym_rec *k = NULL;
	char want[64];
	struct pa_ring r;
	uint32_t id = 0;
	uint8_t tag[8];
	long jited_len;
	int fd, pfd;

	attr.disabled = 0;
	attr.ksymbol = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pfd = pa_bpf_load_trivial("pa_ksym", &id, tag);
	if (pfd < 0)
		pa_skip("cannot load a BPF program: %s", strerror(-pfd));
	/* only a JITed program registers a symbol: its len is the image's */
	pa_bpf_skip_unless_jited(pfd);
	jited_len = pa_bpf_jited_len(pfd);
	snprintf(want, sizeof(want), "bpf_prog_%02x%02x%02x%02x%02x%02x%02x%02x_pa_ksym",
		 tag[0], tag[1], tag[2], tag[3], tag[4], tag[5], tag[6], tag[7]);
	while ((h = pa_ring_find(&r, PERF_RECORD_KSYMBOL))) {
		k = (const struct ksym_rec *)h;
		if (!strcmp(k->name, want))
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(k->ksym_type, 1u);	/* PERF_RECORD_KSYMBOL_TYPE_BPF */
	EXPECT_EQ(k->flags, 0u);	/* registered */
	EXPECT_EQ(k->len, (uint32_t)jited_len);	/* prog->jited_len */
	EXPECT_GE(k->addr, (uint64_t)1 << 63);	/* kernel half (64-bit) */
	EXPECT_EQ(h->size % 8, 0u);
	close(pfd);
}
