#include "perfabi.h"

#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>

#define NAME "pa-sid-thread"	/* 13 bytes + NUL: comm[] padded to 16 */

static struct {
	pid_t tid;
	uint64_t before, after;
	int ret;
} w;

static void *worker(void *arg)
{
	(void)arg;
	w.tid = (pid_t)syscall(SYS_gettid);
	w.before = pa_clock_ns(CLOCK_MONOTONIC);
	w.ret = prctl(PR_SET_NAME, NAME, 0, 0, 0);
	w.after = pa_clock_ns(CLOCK_MONOTONIC);
	return NULL;
}

/*
 * A PERF_RECORD_COMM written for a thread that is not the main thread, by
 * the inherited instance of a sample_id_all event: the record's own pid/tid
 * and every field of the trailer have a value no other field has (pid !=
 * tid, a bracketed CLOCK_MONOTONIC time, id != stream_id, the pinned CPU),
 * so a trailer in another order fails.
 */
PERFABI_CASE(
	.assertion = "with sample_id_all and sample_type TID|TIME|ID|STREAM_ID|CPU|IDENTIFIER, a PERF_RECORD_COMM of a second thread ends with struct sample_id {pid = getpid(), tid = the thread's gettid(), time between clock readings around prctl(PR_SET_NAME), id = the original event's id, stream_id = the thread's inherited instance's id, cpu = the pinned CPU, res = 0, identifier = id}",
	.ref = "perf_event_open(2), sample_id_all: \"If set, then TID, TIME, ID, STREAM_ID, and CPU can additionally be included in non-PERF_RECORD_SAMPLEs\"; MMAP layout: struct sample_id { u32 pid, tid; u64 time; u64 id; u64 stream_id; u32 cpu, res; u64 id (IDENTIFIER) }; PERF_RECORD_COMM { u32 pid, tid; char comm[]; struct sample_id }",
	.alone = true,
	.covers = "attr.sample_id_all record.COMM attr.comm attr.inherit sample.TID sample.TIME sample.ID sample.STREAM_ID sample.CPU sample.IDENTIFIER attr.use_clockid attr.clockid",
	.min_kernel = "4.1",	/* use_clockid; IDENTIFIER is 3.12 */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	const struct perf_event_header *h;
	const uint32_t *body;
	const uint64_t *t;
	uint64_t id = 0;
	size_t comm_len = 16;	/* NAME + NUL, padded to 8 */
	struct pa_ring r;
	int fd, cpu, seen = 0;
	pthread_t th;

	cpu = pa_pin_unswapped();	/* the thread samples with its own instance */
	(void)pa_clock_ns(CLOCK_MONOTONIC);

	attr.comm = 1;
	attr.inherit = 1;
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = ASSERT_OPEN(&attr, 0, cpu, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 8);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(w.ret, 0);
	ASSERT_NE(w.tid, getpid());

	while ((h = pa_ring_find(&r, PERF_RECORD_COMM))) {
		body = (const uint32_t *)(h + 1);
		if (body[1] != (uint32_t)w.tid)
			continue;
		seen++;
		/* header, pid/tid, comm[16], six u64 trailer fields */
		ASSERT_EQ((size_t)h->size, sizeof(*h) + 8 + comm_len + 6 * 8);
		EXPECT_EQ(pa_sample_id_size(&attr), 6 * 8u);
		EXPECT_EQ(body[0], (uint32_t)getpid());
		EXPECT_EQ(strcmp((const char *)(body + 2), NAME), 0);
		t = (const uint64_t *)((const char *)(h + 1) + 8 + comm_len);
		EXPECT_EQ((uint32_t)t[0], (uint32_t)getpid());		/* pid */
		EXPECT_EQ((uint32_t)(t[0] >> 32), (uint32_t)w.tid);	/* tid */
		EXPECT_GE(t[1], w.before);				/* time */
		EXPECT_LE(t[1], w.after);
		EXPECT_EQ(t[2], id);					/* id */
		EXPECT_NE(t[3], id);					/* stream_id */
		EXPECT_NE(t[3], 0u);
		EXPECT_EQ((uint32_t)t[4], (uint32_t)cpu);		/* cpu */
		EXPECT_EQ((uint32_t)(t[4] >> 32), 0u);			/* res */
		EXPECT_EQ(t[5], id);					/* identifier */
	}
	EXPECT_EQ(seen, 1);
	pa_ring_unmap(&r);
	close(fd);
}
