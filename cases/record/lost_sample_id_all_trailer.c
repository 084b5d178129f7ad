#include "perfabi.h"

#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

/*
 * With sample_id_all, the PERF_RECORD_LOST that reports samples dropped
 * from a full ring carries the sample_id trailer like every other
 * non-sample record: __perf_output_begin() grows the reserved size by
 * id_header_size when it owes a LOST and sample_id_all is set, and writes
 * the trailer of the task that writes (current). The sampled task is a
 * worker thread pinned to one CPU: pid != tid, cpu known.
 *
 * sample_type TID|TIME|ID|CPU: a sample is 8 + 32 = 40 bytes, so 102 fit a
 * 4096-byte ring (16 bytes stay free); the LOST is {header, id, lost} +
 * {pid, tid, time, id, cpu, res} = 24 + 32 = 56 bytes.
 */
struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
	uint32_t pid, tid;
	uint64_t time, id2;
	uint32_t cpu, res;
};

static int cmd[2], ack[2], worker_cpu = -1;
static volatile pid_t worker_tid;

static void *worker(void *unused)
{
	char c;

	(void)unused;
	worker_tid = (pid_t)syscall(SYS_gettid);
	if (pa_pin_cpu(worker_cpu))
		worker_cpu = -1;
	while (read(cmd[0], &c, 1) == 1 && c != 'x') {
		pa_touch_pages(c == 'f' ? 300 : 1);
		if (write(ack[1], "k", 1) != 1)
			break;
	}
	return NULL;
}

static void work(int fd, char c)
{
	char k;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(write(cmd[1], &c, 1), 1);
	ASSERT_EQ(read(ack[0], &k, 1), 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
}

PERFABI_CASE(
	.assertion = "with sample_id_all, the PERF_RECORD_LOST written once room is made in a full ring ends with the sample_id trailer of the writing task: 56 bytes {id, lost = samples dropped, pid, tid, time, id, cpu, res}",
	.ref = "perf_event_open(2), sample_id_all (\"TID, TIME, ID, STREAM_ID, and CPU added to every non-PERF_RECORD_SAMPLE\") and PERF_RECORD_LOST {header, id, lost, sample_id}; kernel/events/ring_buffer.c __perf_output_begin() (size += id_header_size when lost and sample_id_all)",
	.alone = true,
	.covers = "record.LOST attr.sample_id_all sample.TID mmap.data_tail",
	.min_kernel = "4.1",		/* use_clockid */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	struct lost_rec l;
	uint64_t id = 0, c0, c1, t0, t1, n = 0;
	struct pa_ring r;
	pthread_t th;
	int fd, cpus[1];
	char k;

	if (sysconf(_SC_PAGESIZE) != 4096)
		pa_skip("page size %ld: the exact numbers are for 4096", sysconf(_SC_PAGESIZE));
	ASSERT_EQ(pa_allowed_cpus(cpus, 1), 1);
	worker_cpu = cpus[0];
	ASSERT_OK(pipe(cmd));
	ASSERT_OK(pipe(ack));
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	ASSERT_EQ(write(cmd[1], "1", 1), 1);	/* started and pinned */
	ASSERT_EQ(read(ack[0], &k, 1), 1);
	ASSERT_NE(worker_cpu, -1);

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			   PERF_SAMPLE_CPU;
	attr.sample_id_all = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = ASSERT_OPEN(&attr, worker_tid, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 1);			/* writable: not overwritten */

	work(fd, 'f');				/* 300 faults, 102 fit */
	pa_read_u64(fd, &c0, 1);
	ASSERT_GE(c0, 300u);
	EXPECT_EQ(pa_ring_head(&r), 102u * 40);
	while ((h = pa_ring_next(&r)))
		n += h->type == PERF_RECORD_SAMPLE;
	EXPECT_EQ(n, 102u);

	t0 = pa_clock_ns(CLOCK_MONOTONIC);
	work(fd, '1');				/* room made: LOST first */
	t1 = pa_clock_ns(CLOCK_MONOTONIC);
	pa_read_u64(fd, &c1, 1);
	ASSERT_GE(c1, c0 + 1);

	h = pa_ring_next(&r);
	ASSERT_TRUE(h != NULL);
	ASSERT_EQ(h->type, (uint32_t)PERF_RECORD_LOST);
	EXPECT_EQ(h->size, (uint16_t)sizeof(l));
	memcpy(&l, h, sizeof(l));
	EXPECT_EQ(l.id, id);
	EXPECT_EQ(l.lost, c0 - 102);
	EXPECT_EQ(l.pid, (uint32_t)getpid());
	EXPECT_EQ(l.tid, (uint32_t)worker_tid);
	EXPECT_GE(l.time, t0);
	EXPECT_LE(l.time, t1);
	EXPECT_EQ(l.id2, id);
	EXPECT_EQ(l.cpu, (uint32_t)worker_cpu);
	EXPECT_EQ(l.res, 0u);
	/* then the samples of that step, none lost */
	n = 0;
	while ((h = pa_ring_next(&r)))
		n += h->type == PERF_RECORD_SAMPLE && h->size == 40;
	EXPECT_EQ(n, c1 - c0);

	ASSERT_EQ(write(cmd[1], "x", 1), 1);
	pthread_join(th, NULL);
	close(fd);
}
