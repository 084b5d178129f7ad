#include "perfabi.h"

#include <pthread.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>

#define N_FAULTS 6

static struct {
	char *p;
	long psz;
	pid_t tid;
	uint64_t ip[N_FAULTS], before[N_FAULTS], after[N_FAULTS], addr[N_FAULTS];
} w;

static void *worker(void *arg)
{
	(void)arg;
	w.tid = (pid_t)syscall(SYS_gettid);
	for (int i = 0; i < N_FAULTS; i++) {
		volatile char *at = w.p + (size_t)w.psz * i + 8 * i + 5;

		w.before[i] = pa_clock_ns(CLOCK_MONOTONIC);
		w.ip[i] = pa_store_byte(at);
		w.after[i] = pa_clock_ns(CLOCK_MONOTONIC);
		w.addr[i] = (uint64_t)(uintptr_t)at;
	}
	return NULL;
}

/*
 * The dense sample of sample/dense_page_fault_fields, taken in a second
 * thread by the event instance that thread inherited: pid and tid differ
 * (pid = the process, tid = the thread), and ID (the original event's id,
 * also in IDENTIFIER and, since 6.12, the read_format id) differs from
 * STREAM_ID (the inherited instance's own id), so neither pair can trade
 * places unseen.
 */
PERFABI_CASE(
	.assertion = "a sample taken in a thread that is not the main thread by an inherited page-fault sampler holds, in the documented order, {identifier = the original id, ip, pid = getpid() and tid = the thread's gettid(), time, addr, id = the original id, stream_id = the thread's instance id, cpu/res, period 1, and since 6.12 read_format {value = the thread's count so far, id}}",
	.ref = "perf_event_open(2), PERF_RECORD_SAMPLE layout; pid, tid: \"the process and thread ID\"; stream_id: \"Unlike PERF_SAMPLE_ID the actual ID is returned, not the group leader\"; kernel/events/core.c __perf_event_header__init_id(): id = primary_event_id(event), stream_id = event->id; perf_output_read_one() (\"perf: Support PERF_SAMPLE_READ with inherit\", 6.12)",
	.alone = true,
	.covers = "record.SAMPLE attr.sample_type attr.inherit sample.IDENTIFIER sample.IP sample.TID sample.TIME sample.ADDR sample.ID sample.STREAM_ID sample.CPU sample.PERIOD sample.READ read_format.ID",
	.min_kernel = "4.1",	/* use_clockid; IDENTIFIER is 3.12 */
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	const struct perf_event_header *h;
	uint64_t id = 0, stream = 0, last = 0;
	bool with_read;
	struct pa_sample s;
	struct pa_ring r;
	int fd, cpu, n = 0, matched = 0;
	size_t want_size;
	pthread_t th;

	cpu = pa_pin_unswapped();	/* the thread samples with its own instance */
	w.psz = sysconf(_SC_PAGESIZE);
	w.p = mmap(NULL, (size_t)w.psz * N_FAULTS, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(w.p != MAP_FAILED);
	(void)pa_clock_ns(CLOCK_MONOTONIC);

	with_read = pa_since("6.12", "PERF_SAMPLE_READ on an inherited event (with PERF_SAMPLE_TID): the sampling thread's own count");
	attr.disabled = 1;
	attr.inherit = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			   PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	want_size = sizeof(*h) + 9 * 8;
	if (with_read) {
		attr.sample_type |= PERF_SAMPLE_READ;
		attr.read_format = PERF_FORMAT_ID;
		want_size += 2 * 8;
	}
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = ASSERT_OPEN(&attr, 0, cpu, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	pa_ring_map(&r, fd, 16);
	pa_ring_prefault(&r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(pthread_create(&th, NULL, worker, NULL), 0);
	ASSERT_EQ(pthread_join(th, NULL), 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(w.tid, getpid());

	while ((h = pa_ring_next(&r))) {
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		EXPECT_EQ(h->size, want_size);
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.identifier, id);
		EXPECT_EQ(s.id, id);
		EXPECT_EQ(s.cpu, (uint32_t)cpu);
		EXPECT_EQ(s.res, 0u);
		EXPECT_EQ(s.period, 1u);
		if (with_read)
			EXPECT_EQ(s.read[1], id);
		if (s.tid != (uint32_t)w.tid) {
			EXPECT_EQ(s.tid, (uint32_t)getpid());	/* the main thread */
			EXPECT_EQ(s.stream_id, id);
			continue;
		}
		n++;
		EXPECT_NE(s.stream_id, id);
		if (!stream)
			stream = s.stream_id;
		EXPECT_EQ(s.stream_id, stream);		/* one instance */
		if (with_read) {
			/* the thread's own count: every fault of it sampled */
			EXPECT_EQ(s.read[0], last + 1);
			last = s.read[0];
		}
		if (matched < N_FAULTS && s.addr == w.addr[matched]) {
			if (w.ip[matched])
				EXPECT_EQ(s.ip, w.ip[matched]);
			EXPECT_GE(s.time, w.before[matched]);
			EXPECT_LE(s.time, w.after[matched]);
			matched++;
		}
	}
	EXPECT_EQ(matched, N_FAULTS);
	pa_diag("thread %d: %d samples, stream_id %llu, id %llu", (int)w.tid, n,
		(unsigned long long)stream, (unsigned long long)id);
	pa_ring_unmap(&r);
	close(fd);
}
