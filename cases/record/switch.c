#include "perfabi.h"

#include <time.h>

PERFABI_CASE(
	.assertion = "attr.context_switch on a task event: sleeping produces PERF_RECORD_SWITCH records, one with PERF_RECORD_MISC_SWITCH_OUT (switched out) and one without (switched in); without sample_id_all they are a bare header",
	.ref = "perf_event_open(2), context_switch (4.3): \"generates PERF_RECORD_SWITCH ... PERF_RECORD_MISC_SWITCH_OUT\"; PERF_RECORD_SWITCH",
	.covers = "attr.context_switch record.SWITCH",
	.min_kernel = "4.3",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct timespec ts = { 0, 2000000 };
	const struct perf_event_header *h;
	struct pa_ring r;
	int fd, out = 0, in = 0;

	attr.disabled = 0;
	attr.context_switch = 1;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 4);
	ASSERT_OK(nanosleep(&ts, NULL));
	while ((h = pa_ring_next(&r))) {
		EXPECT_NE(h->type, (uint32_t)PERF_RECORD_SWITCH_CPU_WIDE);
		if (h->type != PERF_RECORD_SWITCH)
			continue;
		EXPECT_EQ(h->size, sizeof(*h));
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			out++;
		else
			in++;
	}
	EXPECT_GE(out, 1);
	EXPECT_GE(in, 1);
}
