#include "perfabi.h"

#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/*
 * ab711fe08297 (2.6.39): scheduling task contexts at a context switch
 * went wrong when both the task going out and the one coming in had
 * events (per-thread groups of a threaded program, perfsuite's
 * mpx-pthread: a panic or a hang). The behaviour restored: a context
 * switch schedules out the old task's context and schedules in the new
 * one's, so each task counts its own work and nothing else.
 *
 * Two threads pinned to one CPU hand a token back and forth through
 * pipes, so every hand-over is a direct switch between them; each turn
 * thread 1 stores into 1 fresh page and thread 2 into 2.
 * - own events: each thread counts page faults and task-clock on itself:
 *   faults exactly 1 and 2 per turn; task-clock at least the time its
 *   context was in by the thread's own PERF_RECORD_SWITCH records, and at
 *   most half again the thread's own CPU time (see check_tc());
 * - cloned contexts: one inherited page-fault counter of the main thread,
 *   opened before the threads exist and enabled only while they take
 *   turns (both threads get equivalent cloned contexts, which a switch
 *   between them swaps rather than reschedules), counts exactly their
 *   stores in all once they have exited.
 */
#define BUDGET_MS	400
#define MAX_ROUNDS	2000
#define STACK_BYTES	(256 * 1024)
/* data pages of each thread's switch-record ring: 16-byte records, room
 * for the first 2048 windows (a full ring drops the later records: the
 * bound then covers the windows it holds) */
#define SWITCH_PAGES	16
/* attr.context_switch (4.3): the switch records of the lower bound */
static bool switch_records;

/* main and the two threads: after the warm-up, to start, after the turns */
static pthread_barrier_t b_ready, b_go, b_done, b_exit;

struct side {
	int idx;		/* 1 or 2: pages per turn */
	int cpu;
	bool own;		/* open the thread's own events */
	int in, out;		/* pipe ends: token from / to the other */
	char *pages;
	long psz;
	int rounds;		/* turns taken */
	int err;
	const char *failed;
	uint64_t faults, tc, cpu_ns, runs;
	struct pa_ring ring;	/* its PERF_RECORD_SWITCH records */
	uint64_t in_ns;		/* their windows: SWITCH_IN to SWITCH_OUT */
	int windows;
};

static void fail_step(struct side *s, const char *what)
{
	if (!s->failed) {
		s->failed = what;
		s->err = errno;
	}
}

/* one turn: this side's stores, then pass the token; false: stop */
static bool turn(struct side *s, char *page, bool first, bool last)
{
	char c = last ? 'q' : 't';

	if (!first || s->idx == 2) {
		if (read(s->in, &c, 1) != 1) {
			fail_step(s, "read");
			return false;
		}
		if (c == 'q')
			return false;
	}
	for (int i = 0; i < s->idx; i++)
		pa_store_byte(page + i * s->psz);
	if (last)
		c = 'q';
	if (write(s->out, &c, 1) != 1) {
		fail_step(s, "write");
		return false;
	}
	return c != 'q';
}

/*
 * The time the thread's context was in, as its PERF_RECORD_SWITCH records
 * show: each SWITCH_IN and the SWITCH_OUT after it. The kernel stamps them
 * with perf_clock(), the clock of the context time that task-clock counts,
 * and emits the SWITCH_IN after perf_event_context_sched_in() and the
 * SWITCH_OUT before perf_event_context_sched_out() (kernel/events/core.c
 * __perf_event_task_sched_in()/_out()): on the thread's one CPU each such
 * window lies inside a stretch task-clock counted, so task-clock is at
 * least their sum. A context not scheduled in at a switch (the bug) counts
 * less. Runs in the thread after DISABLE (reading the ring may fault).
 */
static void switch_windows(struct side *s)
{
	const struct perf_event_header *h;
	uint64_t in = 0;
	bool have_in = false;

	while ((h = pa_ring_next(&s->ring))) {
		uint64_t t;

		if (h->type != PERF_RECORD_SWITCH)
			continue;
		if (h->size != sizeof(*h) + sizeof(t)) {
			fail_step(s, "PERF_RECORD_SWITCH size");
			return;
		}
		memcpy(&t, h + 1, sizeof(t));	/* sample_id: TIME */
		if (!(h->misc & PERF_RECORD_MISC_SWITCH_OUT)) {
			in = t;
			have_in = true;
		} else if (have_in) {
			if (t < in) {
				fail_step(s, "SWITCH_OUT stamped before its SWITCH_IN");
				return;
			}
			s->in_ns += t - in;
			s->windows++;
			have_in = false;
		}
	}
}

static void *side_fn(void *arg)
{
	struct side *s = arg;
	struct perf_event_attr pf = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr tc = pa_sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	struct perf_event_attr sw = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	uint64_t t0, c0 = 0, c1, d0, d1, n0 = 0, n1;
	int pfd = -1, tfd = -1, sfd = -1;
	char *next;

	if (pa_pin_cpu(s->cpu))
		fail_step(s, "sched_setaffinity");
	if (s->own && !s->failed) {
		pfd = pa_perf_open(&pf, 0, -1, -1, 0);
		tfd = pfd < 0 ? -1 : pa_perf_open(&tc, 0, -1, -1, 0);
		/* switch records stamped by perf_clock(), the clock of the
		 * context time task-clock counts */
		sw.context_switch = 1;
		sw.sample_id_all = 1;
		sw.sample_type = PERF_SAMPLE_TIME;
		if (switch_records)
			sfd = tfd < 0 ? -1 : pa_perf_open(&sw, 0, -1, -1, 0);
		if (pfd < 0 || tfd < 0 || (switch_records && sfd < 0))
			fail_step(s, "perf_event_open");
		else if (switch_records && pa_ring_try_map(&s->ring, sfd, SWITCH_PAGES))
			fail_step(s, "mmap");
	}
	/* warm-up turn on the first pages: code, stack, pipes faulted in */
	if (!s->failed)
		turn(s, s->pages, true, false);
	next = s->pages + s->idx * s->psz;
	t0 = pa_clock_ns(CLOCK_MONOTONIC);	/* its first call may fault (vvar) */
	pthread_barrier_wait(&b_ready);
	pthread_barrier_wait(&b_go);	/* the inherited counter is enabled */
	if (s->own && !s->failed) {
		/* reads a /proc file: may fault (not in the inheriting leg) */
		pa_sched_info(&d0, &n0);
		c0 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		/* the switch records after task-clock's ENABLE and before its
		 * DISABLE: every window they show lies within its count */
		if (ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) ||
		    ioctl(tfd, PERF_EVENT_IOC_ENABLE, 0) ||
		    (sfd >= 0 && ioctl(sfd, PERF_EVENT_IOC_ENABLE, 0)))
			fail_step(s, "ENABLE");
	}
	t0 = pa_clock_ns(CLOCK_MONOTONIC);	/* the budget starts now */
	while (!s->failed) {
		bool last = s->idx == 1 &&
			(s->rounds + 1 >= MAX_ROUNDS ||
			 pa_clock_ns(CLOCK_MONOTONIC) - t0 >= BUDGET_MS * 1000000ULL);
		bool more;

		/* side 2 only stores once it has the token: count after */
		more = turn(s, next, false, last);
		if (s->failed)
			break;
		if (s->idx == 1 || more) {
			s->rounds++;
			next += s->idx * s->psz;
		}
		if (!more)
			break;
	}
	if (s->failed && s->out >= 0) {
		char q = 'q';

		/* let the other side stop too (its read would wait forever) */
		if (write(s->out, &q, 1) != 1)
			fail_step(s, "write");
	}
	if (s->own && pfd >= 0 && tfd >= 0) {
		if ((sfd >= 0 && ioctl(sfd, PERF_EVENT_IOC_DISABLE, 0)) ||
		    ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0) ||
		    ioctl(tfd, PERF_EVENT_IOC_DISABLE, 0))
			fail_step(s, "DISABLE");
		c1 = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID);
		pa_sched_info(&d1, &n1);
		s->cpu_ns = c1 - c0;
		s->runs = n1 - n0;
	}
	pthread_barrier_wait(&b_done);
	pthread_barrier_wait(&b_exit);	/* the inherited counter is disabled */
	if (s->own && pfd >= 0 && tfd >= 0) {
		if (read(pfd, &s->faults, 8) != 8 || read(tfd, &s->tc, 8) != 8)
			fail_step(s, "read");
		if (!s->failed && sfd >= 0)
			switch_windows(s);
	}
	if (s->ring.page)
		pa_ring_unmap(&s->ring);
	if (pfd >= 0)
		close(pfd);
	if (tfd >= 0)
		close(tfd);
	if (sfd >= 0)
		close(sfd);
	return NULL;
}

struct pair {
	struct side sd[2];
	int p12[2], p21[2];
	pthread_t th[2];
	pthread_attr_t pat[2];
	void *stk[2];
	size_t len;
};

/* everything that faults in this thread, done before anything counts;
 * own: each side opens its events, else they inherit */
static void prepare(struct pair *pr, bool own, int cpu)
{
	struct side *sd = pr->sd;
	int *p12 = pr->p12, *p21 = pr->p21;
	pthread_attr_t *pat = pr->pat;
	void **stk = pr->stk;
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(MAX_ROUNDS + 2) * 2 * psz;

	pr->len = len;

	ASSERT_OK(pipe(p12));
	ASSERT_OK(pipe(p21));
	for (int i = 0; i < 2; i++) {
		memset(&sd[i], 0, sizeof(sd[i]));
		sd[i].idx = i + 1;
		sd[i].cpu = cpu;
		sd[i].own = own;
		sd[i].psz = psz;
		sd[i].in = i ? p12[0] : p21[0];
		sd[i].out = i ? p21[1] : p12[1];
		sd[i].pages = mmap(NULL, len, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_TRUE(sd[i].pages != MAP_FAILED);
		madvise(sd[i].pages, len, MADV_NOHUGEPAGE);
		/* a stack of our own, faulted in: the threads' start takes
		 * no page fault the inherited counter would see */
		stk[i] = mmap(NULL, STACK_BYTES, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_TRUE(stk[i] != MAP_FAILED);
		memset(stk[i], 1, STACK_BYTES);
		ASSERT_EQ(pthread_attr_init(&pat[i]), 0);
		ASSERT_EQ(pthread_attr_setstack(&pat[i], stk[i], STACK_BYTES), 0);
	}
}

/* inh: the inherited counter, enabled only while the threads take turns */
static void go(struct pair *pr, bool own, int inh)
{
	struct side *sd = pr->sd;
	pthread_t *th = pr->th;

	for (int i = 0; i < 2; i++)
		ASSERT_EQ(pthread_create(&th[i], &pr->pat[i], side_fn, &sd[i]), 0);
	pthread_barrier_wait(&b_ready);
	if (inh >= 0 && ioctl(inh, PERF_EVENT_IOC_ENABLE, 0))
		pa_fail("ENABLE of the inherited counter: %s", pa_errno_name(errno));
	pthread_barrier_wait(&b_go);
	pthread_barrier_wait(&b_done);
	if (inh >= 0 && ioctl(inh, PERF_EVENT_IOC_DISABLE, 0))
		pa_fail("DISABLE of the inherited counter: %s", pa_errno_name(errno));
	pthread_barrier_wait(&b_exit);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		if (sd[i].failed)
			pa_fail("thread %d: %s: %s", i + 1, sd[i].failed,
				pa_errno_name(sd[i].err));
	}
	pa_diag("%s: %d and %d turns on CPU %d", own ? "own events" : "cloned contexts",
		sd[0].rounds, sd[1].rounds, sd[0].cpu);
	/* thread 1's last turn has no answer: thread 2 reads the stop */
	EXPECT_GT(sd[0].rounds, 1);
	EXPECT_EQ(sd[1].rounds, sd[0].rounds - 1);
}

static void release(struct pair *pr)
{
	for (int i = 0; i < 2; i++) {
		pthread_attr_destroy(&pr->pat[i]);
		munmap(pr->sd[i].pages, pr->len);
		munmap(pr->stk[i], STACK_BYTES);
	}
	close(pr->p12[0]);
	close(pr->p12[1]);
	close(pr->p21[0]);
	close(pr->p21[1]);
}

/*
 * Task-clock counts the context time while the thread's context is in
 * (sched-in in finish_task_switch() to sched-out in prepare_task_switch()).
 * - at least the windows of its switch records (switch_windows()): an
 *   exact inequality on any correct kernel. The thread's CPU time is no
 *   lower bound: it also counts each switch-in path before the context
 *   comes in (7 % of it on a minimal 6.12 under TCG, where most of a turn
 *   is switching);
 * - at most half again its own CPU time: beyond that CPU time it counts
 *   only the switch-out path after the CPU time stopped (the pick of the
 *   next task to prepare_task_switch()) and interrupt time rq_clock_task()
 *   leaves out; a context left in while the other thread ran would add
 *   that thread's time, about as much again (it does more work a turn).
 */
static void check_tc(const struct side *s)
{
	uint64_t hi = s->cpu_ns + s->cpu_ns / 2;

	pa_diag("thread %d: task-clock %llu ns, context in %llu ns over %d switch windows, own CPU time %llu ns, %llu switches",
		s->idx, (unsigned long long)s->tc, (unsigned long long)s->in_ns,
		s->windows, (unsigned long long)s->cpu_ns,
		(unsigned long long)s->runs);
	if (switch_records) {
		EXPECT_GT(s->windows, 0);
		EXPECT_GE(s->tc, s->in_ns);
	} else {
		/* no switch records before 4.3: half the CPU time, the
		 * PA_WORKED_NS_MIN rule (a context never in shows ~0) */
		EXPECT_GE(s->tc, s->cpu_ns / 2);
	}
	EXPECT_LE(s->tc, hi);
}

PERFABI_CASE(
	.assertion = "a context switch between two threads that both have events schedules out the old task's context and schedules in the new one's: each thread counts only its own work (page faults exactly its own stores; task-clock at least the windows its PERF_RECORD_SWITCH records show the context in, at most half again its own CPU time), and with equivalent cloned (inherited) contexts the swapped contexts together count exactly the threads' faults",
	.ref = "\"perf: Fix task context scheduling\" ab711fe08297 (2.6.39): kernel/perf_event.c perf_event_task_sched_out()/perf_event_context_sched_in(); context swap of equivalent contexts in perf_event_context_sched_out()",
	.alone = true,
	.covers = "sw.PAGE_FAULTS sw.TASK_CLOCK arg.pid attr.inherit",
	.fix = { .commit = "ab711fe08297", .subject = "perf: Fix task context scheduling", .release = "2.6.39" },
	.probe = pa_probe_self_perf,
	.destructive = true,
	.xfail = {
		.from = "2.6.37",	/* per-PMU task contexts; the oldest release with the code */
		.to = "2.6.39",
		.why = "task context scheduling at a switch between tasks with events went wrong: panic or hang (perfsuite mpx-pthread)",
		.fix = "ab711fe08297",
	},
	.timeout = 20,
) {
	struct perf_event_attr inh = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	static struct pair pr;
	struct side *sd = pr.sd;
	int cpus[1], fd;
	uint64_t total;

	ASSERT_GE(pa_allowed_cpus(cpus, 1), 1);
	switch_records = pa_kernel_at_least("4.3");
	ASSERT_EQ(pthread_barrier_init(&b_ready, NULL, 3), 0);
	ASSERT_EQ(pthread_barrier_init(&b_go, NULL, 3), 0);
	ASSERT_EQ(pthread_barrier_init(&b_done, NULL, 3), 0);
	ASSERT_EQ(pthread_barrier_init(&b_exit, NULL, 3), 0);

	prepare(&pr, true, cpus[0]);
	go(&pr, true, -1);
	EXPECT_EQ(sd[0].faults, (uint64_t)sd[0].rounds);
	EXPECT_EQ(sd[1].faults, 2 * (uint64_t)sd[1].rounds);
	check_tc(&sd[0]);
	check_tc(&sd[1]);
	release(&pr);

	prepare(&pr, false, cpus[0]);
	/* opened disabled before the threads exist: both inherit a clone
	 * of this context; ENABLE reaches the inherited copies too */
	inh.inherit = 1;
	fd = ASSERT_OPEN(&inh, 0, -1, -1, 0);
	go(&pr, false, fd);
	total = pa_read_one(fd);	/* the threads' counts, folded at exit */
	close(fd);
	release(&pr);
	pa_diag("cloned contexts: %llu faults in all", (unsigned long long)total);
	EXPECT_EQ(total, (uint64_t)sd[0].rounds + 2 * (uint64_t)sd[1].rounds);
}
