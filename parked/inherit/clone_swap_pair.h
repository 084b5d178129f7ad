/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two children whose perf contexts are clones of the same context, run so
 * that the kernel swaps their contexts at most of their switches, for the
 * parked/inherit/inherit_stat_swap_* cases.
 *
 * Tasks, all pinned to one CPU C (we pin ourselves first; the others
 * inherit it):
 *  - us (T): we fork M and wait until it says it is ready and sleeps in
 *    read() (M's faults just after fork() would otherwise be counted or
 *    not depending on how far it got: totals varied by up to 9 here
 *    without that wait), open the events on M (pid M, cpu C: an inherited
 *    event can be mmapped only when bound to a CPU), map the counter's
 *    ring, let M go, and read everything after M and its children are
 *    gone. We have no event of our own, so our context (if any) is no
 *    clone of anything and never swaps.
 *  - M: the parent of the clones. It takes SCHED_FIFO with
 *    SCHED_RESET_ON_FORK, maps an untouched region (no huge pages), forks
 *    A and B (SCHED_OTHER, so neither runs on C while M can), then opens a
 *    dummy event on itself. That open bumps M's context generation
 *    (find_get_context(): unclone_ctx(); list_add_event()), so M's context
 *    no longer matches its children's parent_gen and context_equiv() never
 *    lets M swap with them; A and B still share parent_ctx and parent_gen,
 *    so they swap with each other. M then drops to SCHED_OTHER, sends us
 *    the pids and reaps both. Without that (M swapping with a child before
 *    the bump), a child could leave with M's original event, which is not
 *    a child event and gets no PERF_RECORD_READ (sync_child_event() is for
 *    inherited events only).
 *  - A and B: TURNS turns of ping-pong over two pipes; per turn A touches
 *    xa fresh pages of the region, B xb. With both on C and nothing else
 *    runnable, A blocking in read() switches straight to B and back: each
 *    such switch is a context swap (perf_event_context_sched_out()). Each
 *    stores its voluntary context switches in a shared page and exits.
 *
 * The counter: page faults, inherit, read_format ID, inherit_stat as the
 * case says; its ring gets the children's PERF_RECORD_READ records. The
 * witness: a page-fault sampler (period 2, TID | STREAM_ID, inherit, never
 * inherit_stat) whose output goes to the same ring. A sample's stream_id
 * is the id of the event instance that took it, and each context has its
 * own instance; a swap makes a child's faults be sampled by the instance
 * of the other child's context, so a stream_id seen in samples of both A
 * and B shows that their contexts were swapped (a diagnostic: the number
 * of swaps is up to the scheduler).
 *
 * Each child's faults are the same on every run but for the touched pages
 * (the same code path; the region is the same size), so a control run (1
 * page a turn each) and a measured run differ in each child's count by
 * exactly TURNS * the extra pages.
 */
#ifndef PARKED_CLONE_SWAP_PAIR_H
#define PARKED_CLONE_SWAP_PAIR_H

#include "perfabi.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define TURNS		64
#define MAX_PER_TURN	24	/* region: TURNS * MAX_PER_TURN pages */
#define MAX_READS	8

struct swap_shared {
	long csw[2];		/* A's and B's voluntary context switches */
};

struct swap_run {
	pid_t m, a, b;
	uint64_t total, total_id;	/* our read of the counter after all */
	uint64_t id;			/* its PERF_EVENT_IOC_ID */
	int nread;			/* PERF_RECORD_READ records */
	struct pa_read_rec rec[MAX_READS];
	int nsample[2];			/* samples of A, of B */
	int shared_streams;		/* stream_ids sampled in both A and B */
	int nother;			/* records of other types */
	long csw[2];
};

static void swap_touch(char *region, long psz, int turn, int n)
{
	volatile char *p = region + (size_t)turn * MAX_PER_TURN * (size_t)psz;

	for (int i = 0; i < n; i++)
		p[(size_t)i * (size_t)psz] = 1;
}

static void swap_csw(struct swap_shared *sh, int who)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		_exit(30);
	sh->csw[who] = ru.ru_nvcsw;
}

/* M: 0 when all went well, else an exit code saying what failed. */
static int swap_m(int go, int info, int xa, int xb, struct swap_shared *sh)
{
	struct perf_event_attr d = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct sched_param rt = { .sched_priority = 1 }, other = { 0 };
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)TURNS * MAX_PER_TURN * (size_t)psz;
	int ab[2], ba[2], st, dfd;
	pid_t pids[2];
	char *region, c;

	if (write(info, "r", 1) != 1 || read(go, &c, 1) != 1)
		return 10;
	if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &rt))
		return 11;
	region = mmap(NULL, len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		return 12;
	madvise(region, len, MADV_NOHUGEPAGE);
	if (pipe(ab) || pipe(ba))
		return 13;
	pids[0] = fork();
	if (pids[0] < 0)
		return 14;
	if (pids[0] == 0) {		/* A */
		for (int t = 0; t < TURNS; t++) {
			swap_touch(region, psz, t, xa);
			if (write(ab[1], "a", 1) != 1 || read(ba[0], &c, 1) != 1)
				_exit(31);
		}
		swap_csw(sh, 0);
		_exit(0);
	}
	pids[1] = fork();
	if (pids[1] < 0)
		return 14;
	if (pids[1] == 0) {		/* B */
		for (int t = 0; t < TURNS; t++) {
			if (read(ab[0], &c, 1) != 1)
				_exit(31);
			swap_touch(region, psz, t, xb);
			if (write(ba[1], "b", 1) != 1)
				_exit(31);
		}
		swap_csw(sh, 1);
		_exit(0);
	}
	/* our context stops matching the children's parent_gen */
	dfd = (int)syscall(SYS_perf_event_open, &d, 0, -1, -1, 0);
	if (dfd < 0)
		return 15;
	if (sched_setscheduler(0, SCHED_OTHER, &other))
		return 16;
	if (write(info, pids, sizeof(pids)) != (ssize_t)sizeof(pids))
		return 17;
	close(ab[0]); close(ab[1]); close(ba[0]); close(ba[1]);
	for (int i = 0; i < 2; i++) {
		if (waitpid(pids[i], &st, 0) != pids[i])
			return 18;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return 19;
	}
	return 0;
}

/* The stream_ids sampled in A and in B (at most 8 each, first seen). */
struct swap_streams {
	uint64_t id[2][8];
	int n[2];
};

static void swap_stream_note(struct swap_streams *st, int who, uint64_t id)
{
	for (int i = 0; i < st->n[who]; i++)
		if (st->id[who][i] == id)
			return;
	if (st->n[who] < 8)
		st->id[who][st->n[who]++] = id;
}

/*
 * One run: xa and xb pages a turn (1..MAX_PER_TURN). With stat, the
 * counter has inherit_stat. SKIP where M cannot take SCHED_FIFO.
 */
static void swap_run(int cpu, bool stat, int xa, int xb, struct swap_run *r)
{
	struct perf_event_attr c = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr w = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 2);
	static struct swap_shared *sh;
	struct swap_streams streams = { 0 };
	const struct perf_event_header *h;
	int go[2], info[2], fd, wfd, st;
	uint64_t b[2];
	struct pa_ring ring;
	pid_t pids[2];

	memset(r, 0, sizeof(*r));
	if (!sh) {
		sh = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		ASSERT_TRUE(sh != MAP_FAILED);
	}
	memset(sh, 0, sizeof(*sh));
	ASSERT_OK(pipe(go));
	ASSERT_OK(pipe(info));
	r->m = ASSERT_OK(fork());
	if (r->m == 0) {
		close(go[1]);
		close(info[0]);
		_exit(swap_m(go[0], info[1], xa, xb, sh));
	}
	close(go[0]);
	close(info[1]);
	/* M's own faults after fork() vary with how far it ran before we
	 * open the counter: open it once M says it is ready and sleeps in
	 * read() (its faults from then on are the same every run) */
	ASSERT_EQ(read(info[0], pids, 1), 1);
	for (int i = 0; pa_task_state(r->m, 0, NULL) != 'S'; i++) {
		ASSERT_LT(i, 10000);
		usleep(1000);
	}

	c.disabled = 0;
	c.inherit = 1;
	c.inherit_stat = stat;
	c.read_format = PERF_FORMAT_ID;
	w.inherit = 1;
	w.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_STREAM_ID;
	fd = ASSERT_OPEN(&c, r->m, cpu, -1, 0);
	wfd = ASSERT_OPEN(&w, r->m, cpu, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &r->id));
	pa_ring_map(&ring, fd, 16);
	ASSERT_OK(ioctl(wfd, PERF_EVENT_IOC_SET_OUTPUT, fd));

	ASSERT_EQ(write(go[1], "g", 1), 1);
	close(go[1]);
	if (read(info[0], pids, sizeof(pids)) == (ssize_t)sizeof(pids)) {
		r->a = pids[0];
		r->b = pids[1];
	}
	close(info[0]);
	ASSERT_EQ(waitpid(r->m, &st, 0), r->m);
	ASSERT_TRUE(WIFEXITED(st));
	if (WEXITSTATUS(st) == 11)
		pa_skip("SCHED_FIFO refused: needed (CAP_SYS_NICE) to keep the forking parent from swapping contexts with its children");
	if (WEXITSTATUS(st)) {
		pa_fail("the parent of the clones failed at step %d", WEXITSTATUS(st));
		pa_abort();
	}
	r->csw[0] = sh->csw[0];
	r->csw[1] = sh->csw[1];

	ASSERT_EQ(read(fd, b, sizeof(b)), (ssize_t)sizeof(b));
	r->total = b[0];
	r->total_id = b[1];

	while ((h = pa_ring_next(&ring))) {
		if (h->type == PERF_RECORD_READ) {
			ASSERT_EQ(h->size, sizeof(struct pa_read_rec));
			if (r->nread < MAX_READS)
				memcpy(&r->rec[r->nread], h, sizeof(struct pa_read_rec));
			r->nread++;
		} else if (h->type == PERF_RECORD_SAMPLE) {
			const uint32_t *u = (const uint32_t *)(h + 1);
			const uint64_t *q = (const uint64_t *)(u + 2);
			int who = u[1] == (uint32_t)r->a ? 0 : u[1] == (uint32_t)r->b ? 1 : -1;

			if (who >= 0) {
				r->nsample[who]++;
				swap_stream_note(&streams, who, q[0]);
			}
		} else {
			r->nother++;
		}
	}
	for (int i = 0; i < streams.n[0]; i++)
		for (int j = 0; j < streams.n[1]; j++)
			if (streams.id[0][i] == streams.id[1][j])
				r->shared_streams++;
	pa_ring_unmap(&ring);
	close(wfd);
	close(fd);
}

/* The READ record of pid, or NULL. */
static inline const struct pa_read_rec *swap_read_of(const struct swap_run *r,
						      pid_t pid)
{
	for (int i = 0; i < r->nread && i < MAX_READS; i++)
		if (r->rec[i].pid == (uint32_t)pid)
			return &r->rec[i];
	return NULL;
}

/* Pin to the first CPU we may use: its number. */
static inline int swap_pin(void)
{
	int cpus[1];

	if (pa_allowed_cpus(cpus, 1) < 1 || pa_pin_cpu(cpus[0]))
		pa_skip("cannot pin to a CPU: %s", strerror(errno));
	return cpus[0];
}

#endif
