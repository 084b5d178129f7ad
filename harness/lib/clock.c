// SPDX-License-Identifier: GPL-2.0
/*
 * pa_check_clockid_times(): the check the sample/time_clockid_* cases share:
 * the timestamps of an event with use_clockid are on that clock.
 *
 * A period-1 page-fault sampler on this thread (use_clockid, clockid clk,
 * sample_id_all, comm) sees, in this order and each between two
 * clock_gettime(clk) taken around it:
 *	fault A	(a write to a fresh page)	PERF_RECORD_SAMPLE, time in [t0, t1]
 *	prctl(PR_SET_NAME)			PERF_RECORD_COMM, trailer time in [t1, t2]
 *	fault B	(a write to another one)	PERF_RECORD_SAMPLE, time in [t2, t3]
 * and every record in the ring (incidental faults included) has a time
 * between readings taken before ENABLE and after DISABLE, each no earlier
 * than the one before it (one thread writes them all, in order). Equal
 * times pass: a jiffies clocksource ticks once per jiffy.
 */
#include <sys/resource.h>
#include "internal.h"

#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>

#define PA_TCK_NAME	"pa-tck-comm"	/* 11 bytes + NUL: comm[] padded to 16 */

/* What the records must show: whose they are, and the clock readings
 * around what made them. */
struct tck {
	const struct perf_event_attr *attr;
	uint32_t pid, tid;
	uint64_t id;		/* the event's PERF_EVENT_IOC_ID */
	uint64_t a, b;		/* the addresses faults A and B write */
	uint64_t e0, e1;	/* readings before ENABLE and after DISABLE */
	uint64_t t[4];		/* readings around fault A, the comm, fault B */
};

/* Enable the event, fault A, rename the thread, fault B, disable it, each
 * step between two readings of clk. */
static void tck_window(struct tck *k, int fd, clockid_t clk, const char *clk_name,
		       char *p, long psz)
{
	uint64_t *t = k->t;

	/* warm up the vDSO, prctl() and the store, outside the window */
	t[0] = pa_clock_ns(clk);
	ASSERT_OK(prctl(PR_SET_NAME, "pa-tck-warm", 0, 0, 0));
	p[2 * psz] = 1;

	k->e0 = pa_clock_ns(clk);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	t[0] = pa_clock_ns(clk);
	*(volatile char *)(uintptr_t)k->a = 1;
	t[1] = pa_clock_ns(clk);
	ASSERT_OK(prctl(PR_SET_NAME, PA_TCK_NAME, 0, 0, 0));
	t[2] = pa_clock_ns(clk);
	*(volatile char *)(uintptr_t)k->b = 1;
	t[3] = pa_clock_ns(clk);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	k->e1 = pa_clock_ns(clk);
	pa_diag("%s: t0..t3 = %llu %llu %llu %llu", clk_name,
		(unsigned long long)t[0], (unsigned long long)t[1],
		(unsigned long long)t[2], (unsigned long long)t[3]);
}

/* A PERF_RECORD_SAMPLE: this thread's, of this event, and fault A's or
 * B's inside its readings (counted in *n_a, *n_b). Its time. */
static uint64_t tck_sample(const struct tck *k, const struct perf_event_header *h,
			   int *n_a, int *n_b)
{
	/* named as the checks print them */
	const uint64_t *t = k->t;
	uint32_t pid = k->pid, tid = k->tid;
	uint64_t id = k->id, time;
	struct pa_sample s;

	/* header + pid/tid, time, addr, id */
	EXPECT_EQ(h->size, sizeof(*h) + 4 * 8);
	if (!pa_sample_parse(k->attr, h, &s))
		pa_abort();
	EXPECT_EQ(s.pid, pid);
	EXPECT_EQ(s.tid, tid);
	EXPECT_EQ(s.id, id);
	time = s.time;
	if (s.addr == k->a) {
		(*n_a)++;
		EXPECT_GE(time, t[0]);
		EXPECT_LE(time, t[1]);
	} else if (s.addr == k->b) {
		(*n_b)++;
		EXPECT_GE(time, t[2]);
		EXPECT_LE(time, t[3]);
	}
	return time;
}

/* The PERF_RECORD_COMM of the rename: this thread's, the new name, not an
 * exec, and a sample_id trailer of this event timed between its readings.
 * Its time. */
static uint64_t tck_comm(const struct tck *k, const struct perf_event_header *h)
{
	/* named as the checks print them */
	const size_t comm_len = 16;
	const uint64_t *t = k->t;
	uint32_t pid = k->pid, tid = k->tid;
	uint64_t id = k->id, time;
	const uint32_t *body;
	const uint64_t *tr;

	/* header, pid/tid, comm[16], trailer {pid/tid, time, id} */
	body = (const uint32_t *)(h + 1);
	tr = (const uint64_t *)((const char *)(h + 1) + 8 + comm_len);
	EXPECT_EQ(h->size, sizeof(*h) + 8 + comm_len + 3 * 8);
	EXPECT_EQ(h->misc & PERF_RECORD_MISC_COMM_EXEC, 0);
	EXPECT_EQ(body[0], pid);
	EXPECT_EQ(body[1], tid);
	EXPECT_EQ(strcmp((const char *)(body + 2), PA_TCK_NAME), 0);
	EXPECT_EQ((uint32_t)tr[0], pid);
	EXPECT_EQ((uint32_t)(tr[0] >> 32), tid);
	EXPECT_EQ(tr[2], id);
	time = tr[1];
	EXPECT_GE(time, t[1]);
	EXPECT_LE(time, t[2]);
	return time;
}

/* Every record in the ring: a sample or the comm, each inside the enabled
 * window and no earlier than the one before it; one of each expected. */
static void tck_check_ring(const struct tck *k, struct pa_ring *r)
{
	/* named as the checks print them */
	uint64_t e0 = k->e0, e1 = k->e1, last = 0;
	const struct perf_event_header *h;
	int n_a = 0, n_b = 0, n_comm = 0, n_other = 0;

	while ((h = pa_ring_next(r))) {
		uint64_t time;

		if (h->type == PERF_RECORD_SAMPLE) {
			time = tck_sample(k, h, &n_a, &n_b);
		} else if (h->type == PERF_RECORD_COMM) {
			n_comm++;
			time = tck_comm(k, h);
		} else {
			n_other++;
			pa_diag("unexpected record type %u", h->type);
			continue;
		}
		/* every record of the event: inside the enabled window, in order */
		EXPECT_GE(time, e0);
		EXPECT_LE(time, e1);
		EXPECT_GE(time, last);
		last = time;
	}
	EXPECT_EQ(n_a, 1);
	EXPECT_EQ(n_comm, 1);
	EXPECT_EQ(n_b, 1);
	EXPECT_EQ(n_other, 0);
}

void pa_check_clockid_times(clockid_t clk, const char *clk_name)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	struct tck k = {
		.attr = &attr,
		.pid = (uint32_t)getpid(),
		.tid = (uint32_t)syscall(SYS_gettid),
	};
	uint64_t id = 0;
	struct pa_ring r;
	int fd;
	char *p;

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
			   PERF_SAMPLE_ID;
	attr.sample_id_all = 1;
	attr.comm = 1;
	attr.use_clockid = 1;
	attr.clockid = clk;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	k.id = id;
	pa_ring_map(&r, fd, 16);
	pa_ring_prefault(&r);
	p = mmap(NULL, (size_t)psz * 3, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	k.a = (uint64_t)(uintptr_t)p + 5;
	k.b = (uint64_t)(uintptr_t)p + (uint64_t)psz + 9;

	tck_window(&k, fd, clk, clk_name, p, psz);
	EXPECT_EQ(pa_sample_id_size(&attr), 3 * 8u);	/* pid/tid, time, id */
	tck_check_ring(&k, &r);
	munmap(p, (size_t)psz * 3);
	pa_ring_unmap(&r);
	close(fd);
}

long pa_thread_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

long pa_thread_vswitches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return -1;
	return ru.ru_nvcsw;
}

void pa_work_until_ctx_time_moves(void)
{
	/* perf's times come from perf_clock() (local_clock()), which on a
	 * kernel without a usable TSC advances only at ticks: an event enabled
	 * and read within one tick shows time_enabled 0, which is right. A
	 * dummy event of this task, enabled now, shares the task context's
	 * time with every event enabled before it: once its time_enabled
	 * moved, theirs has too. */
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	uint64_t v[2] = { 0, 0 };
	int fd;

	a.disabled = 0;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	fd = pa_perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		pa_skip("a dummy event to watch the context time: %s", pa_errno_name(errno));
	for (int ms = 0; v[1] == 0; ms++) {
		if (ms >= 2000) {
			pa_fail("an enabled event's time_enabled stayed 0 over 2 s of this thread's CPU time");
			pa_abort();
		}
		pa_work_cpu_ms(1);
		if (read(fd, v, sizeof(v)) != (ssize_t)sizeof(v)) {
			pa_fail("read() of the dummy event: %s", pa_errno_name(errno));
			pa_abort();
		}
	}
	close(fd);
}

long pa_sleep_until_vswitches(long n)
{
	/* A 2 ms nanosleep() switches out only if its timer has not expired
	 * before do_nanosleep() reaches schedule(): a vCPU the host stalls
	 * longer than that (TCG, a busy host) sleeps without a switch. So
	 * sleep until the kernel's own count says n switches happened. */
	struct timespec ts = { 0, 2000000 };
	long v0 = pa_thread_vswitches(), v = v0;
	uint64_t t0 = pa_clock_ns(CLOCK_MONOTONIC);

	if (v0 < 0)
		pa_skip("getrusage(RUSAGE_THREAD): %s", strerror(errno));
	while (v - v0 < n) {
		if (pa_clock_ns(CLOCK_MONOTONIC) - t0 > 5000000000ull)
			pa_skip("%ld of %ld 2 ms sleeps switched this thread out in 5 s (ru_nvcsw)", v - v0, n);
		nanosleep(&ts, NULL);
		v = pa_thread_vswitches();
	}
	return v - v0;
}
