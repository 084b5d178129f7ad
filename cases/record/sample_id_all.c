#include "perfabi.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

PERFABI_CASE(
	.assertion = "attr.sample_id_all appends struct sample_id {pid, tid, time, id, stream_id, cpu, res, identifier} (those selected by sample_type) to non-sample records: a COMM record grows by exactly that trailer, with our pid/tid, a time between clock readings around the rename (attr.clockid), the event's id as id, stream_id and identifier, and the CPU we are pinned to with res 0",
	.ref = "perf_event_open(2), sample_id_all (2.6.38): \"If set, then TID, TIME, ID, STREAM_ID, and CPU can additionally be included in non-PERF_RECORD_SAMPLEs if the corresponding sample_type is selected\"; struct sample_id; PERF_SAMPLE_IDENTIFIER last",
	.alone = true,
	.covers = "attr.sample_id_all record.COMM sample.IDENTIFIER sample.TID sample.TIME sample.ID sample.STREAM_ID sample.CPU attr.use_clockid",
	.min_kernel = "4.1",	/* use_clockid; IDENTIFIER is 3.12 */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const uint64_t *trailer;
	uint64_t id = 0;
	struct pa_ring r;
	size_t body = 8 + 8;	/* pid, tid + "pa-sid\0" padded */
	uint64_t before, after;
	int fd, cpu;

	/* pinned: the trailer's cpu is the one we run on */
	cpu = sched_getcpu();
	ASSERT_GE(cpu, 0);
	ASSERT_OK(pa_pin_cpu(cpu));
	ASSERT_EQ(sched_getcpu(), cpu);
	attr.disabled = 0;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.comm = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 4);
	before = pa_clock_ns(CLOCK_MONOTONIC);
	ASSERT_OK(prctl(PR_SET_NAME, "pa-sid"));
	after = pa_clock_ns(CLOCK_MONOTONIC);
	h = pa_ring_find(&r, PERF_RECORD_COMM);
	ASSERT_TRUE(h != NULL);
	ASSERT_EQ(pa_sample_id_size(&attr), 48u);
	ASSERT_EQ((size_t)h->size, sizeof(*h) + body + pa_sample_id_size(&attr));
	trailer = (const uint64_t *)((const char *)(h + 1) + body);
	EXPECT_EQ((uint32_t)trailer[0], (uint32_t)getpid());
	EXPECT_EQ((uint32_t)(trailer[0] >> 32), (uint32_t)syscall(SYS_gettid));
	EXPECT_GE(trailer[1], before);			/* time */
	EXPECT_LE(trailer[1], after);
	EXPECT_EQ(trailer[2], id);			/* id */
	EXPECT_EQ(trailer[3], id);			/* stream_id */
	EXPECT_EQ((uint32_t)trailer[4], (uint32_t)cpu);
	EXPECT_EQ((uint32_t)(trailer[4] >> 32), 0u);	/* res */
	EXPECT_EQ(trailer[5], id);			/* identifier, last */
}
