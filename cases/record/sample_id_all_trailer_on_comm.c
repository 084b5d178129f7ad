#include "perfabi.h"

#include <sys/prctl.h>
#include <sys/syscall.h>

/*
 * With sample_id_all, non-sample records end with the sample_id fields that
 * sample_type selects. With TID|TIME the COMM record is 16 bytes longer
 * than the same record of an event without sample_id_all, and its trailer
 * starts with this task's pid and tid.
 */
PERFABI_CASE(
	.assertion = "attr.sample_id_all: a PERF_RECORD_COMM is longer by the sample_id fields (TID and TIME: 16 bytes) than the same record without sample_id_all, and the trailer's pid/tid are the renaming task's",
	.ref = "perf_event_open(2), sample_id_all: \"If set, then TID, TIME, ID, STREAM_ID, and CPU can additionally be included in non-PERF_RECORD_SAMPLEs if the corresponding sample_type is selected\"; struct sample_id",
	.covers = "attr.sample_id_all record.COMM",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct perf_event_attr b = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	struct pa_ring ra, rb;
	uint32_t ids[2];
	size_t sa;
	int fa, fb;

	a.disabled = b.disabled = 0;
	a.comm = b.comm = 1;
	a.sample_type = b.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	fa = ASSERT_OPEN(&a, 0, -1, -1, 0);
	fb = ASSERT_OPEN(&b, 0, -1, -1, 0);
	pa_ring_map(&ra, fa, 4);
	pa_ring_map(&rb, fb, 4);
	ASSERT_OK(prctl(PR_SET_NAME, "pa-attr-sid", 0, 0, 0));
	h = pa_ring_find(&rb, PERF_RECORD_COMM);
	ASSERT_TRUE(h != NULL);
	sa = h->size;
	h = pa_ring_find(&ra, PERF_RECORD_COMM);
	ASSERT_TRUE(h != NULL);
	EXPECT_EQ((size_t)h->size, sa + 16);
	EXPECT_EQ(pa_sample_id_size(&a), 16);
	memcpy(ids, (const char *)h + sa, sizeof(ids));
	EXPECT_EQ(ids[0], (uint32_t)getpid());
	EXPECT_EQ(ids[1], (uint32_t)syscall(SYS_gettid));
	pa_ring_unmap(&ra);
	pa_ring_unmap(&rb);
	close(fa);
	close(fb);
}
