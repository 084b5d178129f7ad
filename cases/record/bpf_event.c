#include "perfabi.h"

struct bpf_rec {
	struct perf_event_header h;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

PERFABI_CASE(
	.assertion = "attr.bpf_event: loading a BPF program produces PERF_RECORD_BPF_EVENT {type PERF_BPF_EVENT_PROG_LOAD (1), flags, id, tag} with the program's id and tag",
	.ref = "perf_event_open(2), bpf_event (5.1): \"enables recording of PERF_RECORD_BPF_EVENT records when a BPF program is loaded or unloaded\"; include/uapi/linux/perf_event.h enum perf_bpf_event_type",
	.alone = true,
	.covers = "attr.bpf_event record.BPF_EVENT",
	.features = "bpf",
	.min_kernel = "5.1",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const struct bpf_rec *b = NULL;
	struct pa_ring r;
	uint32_t id = 0;
	uint8_t tag[8];
	int fd, pfd;

	attr.disabled = 0;
	attr.bpf_event = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pfd = pa_bpf_load_trivial("pa_bpf_event", &id, tag);
	if (pfd < 0)
		pa_skip("cannot load a BPF program: %s", strerror(-pfd));
	while ((h = pa_ring_find(&r, PERF_RECORD_BPF_EVENT))) {
		b = (const struct bpf_rec *)h;
		if (b->id == id)
			break;
	}
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ(b->type, 1u);		/* PERF_BPF_EVENT_PROG_LOAD */
	EXPECT_EQ(b->flags, 0u);
	EXPECT_TRUE(memcmp(b->tag, tag, 8) == 0);
	EXPECT_EQ(h->size, sizeof(*b));
	close(pfd);
}
