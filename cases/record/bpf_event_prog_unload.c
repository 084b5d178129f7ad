#include "perfabi.h"

/*
 * kernel/bpf/syscall.c: the last reference to a program dropped (close()
 * of its only fd; bpf_prog_put() runs in the closing task, or from a work
 * item when called with interrupts off) calls
 * perf_event_bpf_event(prog, PERF_BPF_EVENT_PROG_UNLOAD, 0) before
 * bpf_prog_free_id(): PERF_RECORD_BPF_EVENT {type 2, flags 0, id, tag} with
 * the id and tag the load's record (type 1) had.
 */
struct bpf_rec {
	struct perf_event_header h;
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

/* The next BPF_EVENT record for program id, copied into *b; false if none. */
static bool find_bpf(struct pa_ring *r, uint32_t id, struct bpf_rec *b)
{
	const struct perf_event_header *h;

	while ((h = pa_ring_find(r, PERF_RECORD_BPF_EVENT))) {
		const struct bpf_rec *x = (const struct bpf_rec *)h;

		if (x->id == id) {
			EXPECT_EQ(h->size, sizeof(*x));
			*b = *x;
			return true;
		}
	}
	return false;
}

PERFABI_CASE(
	.assertion = "attr.bpf_event: unloading a BPF program (closing its only fd) produces one PERF_RECORD_BPF_EVENT {type PERF_BPF_EVENT_PROG_UNLOAD (2), flags 0, id, tag} with the id and tag of the program, which its load record (type PERF_BPF_EVENT_PROG_LOAD) also had",
	.ref = "perf_event_open(2), bpf_event (5.1): \"enables recording of PERF_RECORD_BPF_EVENT records when a BPF program is loaded or unloaded\"; include/uapi/linux/perf_event.h enum perf_bpf_event_type; kernel/bpf/syscall.c bpf_prog_put_deferred()",
	.alone = true,
	.covers = "attr.bpf_event record.BPF_EVENT",
	.features = "bpf",
	.min_kernel = "5.1",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct bpf_rec load, unload;
	struct pa_ring r;
	uint32_t id = 0;
	uint8_t tag[8];
	int fd, pfd;

	attr.disabled = 0;
	attr.bpf_event = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	pfd = pa_bpf_load_trivial("pa_bpf_unload", &id, tag);
	if (pfd < 0)
		pa_skip("cannot load a BPF program: %s", strerror(-pfd));
	ASSERT_NE(id, 0u);
	ASSERT_TRUE(find_bpf(&r, id, &load));
	EXPECT_EQ(load.type, 1u);	/* PERF_BPF_EVENT_PROG_LOAD */
	ASSERT_FALSE(find_bpf(&r, id, &unload));	/* nothing more yet */

	ASSERT_OK(close(pfd));
	ASSERT_TRUE(find_bpf(&r, id, &unload));
	EXPECT_EQ(unload.type, 2u);	/* PERF_BPF_EVENT_PROG_UNLOAD */
	EXPECT_EQ(unload.flags, 0u);
	EXPECT_EQ(unload.id, load.id);
	EXPECT_TRUE(memcmp(unload.tag, tag, 8) == 0);
	EXPECT_TRUE(memcmp(unload.tag, load.tag, 8) == 0);
	EXPECT_FALSE(find_bpf(&r, id, &unload));	/* exactly one */
	close(fd);
}
