#include "perfabi.h"

struct text_poke_rec {
	struct perf_event_header h;
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t bytes[];	/* old bytes, new bytes, padding to 8 */
};

static const char *x86_only(void)
{
#if defined(__x86_64__)
	return NULL;
#else
	return "PERF_RECORD_TEXT_POKE is emitted by x86's text patching only";
#endif
}

PERFABI_CASE(
	.assertion = "attr.text_poke: switching on an unused tracepoint patches its jump label in kernel text and produces PERF_RECORD_TEXT_POKE {addr, old_len, new_len, bytes} with a kernel address, equal lengths and bytes that changed",
	.ref = "perf_event_open(2), text_poke (5.8): \"enables recording of PERF_RECORD_TEXT_POKE records when the kernel text is modified\"; arch/x86/kernel/alternative.c text_poke_bp_batch() (jump labels, 5.9)",
	.covers = "attr.text_poke record.TEXT_POKE",
	.min_kernel = "5.9",
	.tracefs = true,
	.root = true,
	.probe = x86_only,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr tp;
	const struct perf_event_header *h;
	const struct text_poke_rec *t;
	struct pa_ring r;
	int fd, kfd;

	attr.disabled = 0;
	attr.text_poke = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);

	/* a tracepoint nothing else uses on a test machine: its static key
	 * goes from off to on when perf registers the first probe */
	tp = pa_tp_attr(pa_tp_id_or_skip("sched", "sched_process_hang"));
	kfd = ASSERT_OPEN(&tp, 0, -1, -1, 0);

	close(kfd);
	h = pa_ring_find(&r, PERF_RECORD_TEXT_POKE);
	if (!h)	/* the key may patch through a path that emits nothing */
		pa_skip("no PERF_RECORD_TEXT_POKE after switching sched:sched_process_hang on and off: this kernel reported no text patching to perf");
	t = (const struct text_poke_rec *)h;
	EXPECT_GE(t->addr, (uint64_t)1 << 63);	/* kernel half */
	EXPECT_GT(t->old_len, 0u);
	EXPECT_EQ(t->old_len, t->new_len);
	EXPECT_TRUE(memcmp(t->bytes, t->bytes + t->old_len, t->old_len) != 0);
	EXPECT_GE(h->size, offsetof(struct text_poke_rec, bytes) + 2u * t->old_len);
	EXPECT_EQ(h->size % 8, 0u);
}
