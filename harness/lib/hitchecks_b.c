// SPDX-License-Identifier: GPL-2.0
/*
 * perfabi: behaviours documented for events in general, each checked once
 * here for any hit class (harness/perfabi.h, "checks of one behaviour on
 * any hit class"): the event and its hits come from pa_hit_attr() and
 * pa_hit() (harness/lib/hits.c); what differs between the classes comes
 * in as parameters, and each case (one class) says in its header which
 * kernel path its class takes.
 */
#include "perfabi.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

/* ---- time_enabled / time_running ---------------------------------------- */
#define TIMES_CALLS	3

void pa_hit_expect_times_equal(enum pa_hit_class c)
{
	int want;
	struct perf_event_attr attr = pa_hit_attr(c, &want);
	uint64_t b[4] = { 7, 7, 7, 7 }, first;	/* {value, enabled, running} */
	int fd;

	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return;		/* the refusal the rules give was the check */
	ASSERT_GE(fd, 0);
	pa_hit(c, 1);		/* open but never enabled */
	pa_work_cpu_ms(5);
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(b[1], 0);
	EXPECT_EQ(b[2], 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_hit(c, TIMES_CALLS);
	pa_work_cpu_ms(5);	/* until the clock advanced, however coarse */
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);	/* while enabled */
	EXPECT_EQ(b[0], TIMES_CALLS);
	EXPECT_GT(b[1], 0);
	EXPECT_EQ(b[1], b[2]);
	first = b[1];
	usleep(10000);		/* off the CPU for a while */
	pa_work_cpu_ms(5);
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);	/* still enabled */
	EXPECT_GT(b[1], first);
	EXPECT_EQ(b[1], b[2]);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hit(c, 1);		/* disabled: not counted */
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[0], TIMES_CALLS);
	EXPECT_GT(b[1], 0);
	EXPECT_EQ(b[1], b[2]);
	first = b[1];
	pa_work_cpu_ms(5);	/* disabled: the times stand still */
	usleep(10000);
	ASSERT_EQ(read(fd, b, sizeof(b)), 24);
	EXPECT_EQ(b[1], first);
	EXPECT_EQ(b[2], first);
	pa_diag("%s: value %llu, time_enabled == time_running == %llu after DISABLE",
		pa_hit_class_name(c), (unsigned long long)b[0], (unsigned long long)first);
	close(fd);
}

/* ---- PERF_EVENT_IOC_PAUSE_OUTPUT ------------------------------------------ */
#define PAUSE_BEFORE	4	/* hits before the pause: samples */
#define PAUSE_PAUSED	10	/* hits while paused: lost */
#define PAUSE_AFTER	3	/* hits after it: LOST, then samples */

struct lost_rec {
	struct perf_event_header h;
	uint64_t id, lost;
};

/* read() of the event: its value, and with PERF_FORMAT_LOST its lost
 * samples (else *lost is left alone) */
static uint64_t read_value_lost(int fd, bool lost_fmt, uint64_t *lost)
{
	uint64_t v[2];

	if (!lost_fmt)
		return pa_read_one(fd);
	pa_read_u64(fd, v, 2);
	*lost = v[1];
	return v[0];
}

/* What one pause_output_lost check saw: data_head and the reads around
 * the pause, and the records in the ring. */
struct pause_seen {
	bool lost_fmt;		/* read_format has PERF_FORMAT_LOST */
	uint64_t id, rec;	/* the event's id, the size of one sample */
	uint64_t head[4];	/* before PAUSE, paused, resumed, after it all */
	uint64_t count, paused_count, lost_paused, lost_end;
	/* in the ring: samples, THROTTLE/UNTHROTTLE records, samples before
	 * the PERF_RECORD_LOST (-1: none) and after it */
	int n, throttled, lost_at, samples_after;
	struct lost_rec l;	/* the PERF_RECORD_LOST */
};

/* Enable the event and hit it, pause its output and hit it, resume and hit
 * it, then disable it, reading data_head and the event along the way. */
static void pause_output_steps(enum pa_hit_class c, int fd, struct pa_ring *r,
			       struct pause_seen *ps)
{
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_hit(c, PAUSE_BEFORE);
	ps->head[0] = pa_ring_head(r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	pa_hit(c, PAUSE_PAUSED);	/* PAUSE_PAUSED samples dropped */
	ps->head[1] = pa_ring_head(r);
	ps->paused_count = read_value_lost(fd, ps->lost_fmt, &ps->lost_paused);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ps->head[2] = pa_ring_head(r);	/* nothing written yet */
	pa_hit(c, PAUSE_AFTER);
	ps->head[3] = pa_ring_head(r);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ps->count = read_value_lost(fd, ps->lost_fmt, &ps->lost_end);
}

/* The ring's records: samples of this thread, one PERF_RECORD_LOST among
 * them (where, and how many samples follow it), and throttling. */
static void pause_output_records(const struct perf_event_attr *attr, struct pa_ring *r,
				 struct pause_seen *ps)
{
	/* named as the checks print them */
	const struct perf_event_attr a = *attr;
	int n = 0, throttled = 0, lost_at = -1, samples_after = 0;
	const struct perf_event_header *h;
	struct lost_rec l = { 0 };
	struct pa_sample s;

	while ((h = pa_ring_next(r))) {
		if (h->type == PERF_RECORD_THROTTLE || h->type == PERF_RECORD_UNTHROTTLE) {
			throttled++;
			continue;
		}
		if (h->type == PERF_RECORD_LOST) {
			EXPECT_EQ(lost_at, -1);		/* one LOST record */
			EXPECT_EQ(h->size, sizeof(l));
			memcpy(&l, h, sizeof(l));
			lost_at = n;
			continue;
		}
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("unexpected record type %u", h->type);
			continue;
		}
		if (!pa_sample_parse(&a, h, &s))
			pa_abort();
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)gettid());
		if (a.sample_type & PERF_SAMPLE_ADDR)
			EXPECT_EQ(s.addr, a.bp_addr);
		if (lost_at >= 0)
			samples_after++;
		n++;
	}
	ps->n = n;
	ps->throttled = throttled;
	ps->lost_at = lost_at;
	ps->samples_after = samples_after;
	ps->l = l;
}

/* What the steps and the ring must show: counting went on while paused,
 * the paused hits were dropped and counted lost, and one PERF_RECORD_LOST
 * says so between the samples from before and after the pause. */
static void pause_output_verdict(enum pa_hit_class c, const struct pause_seen *ps)
{
	/* named as the checks print them */
	const uint64_t *head = ps->head;
	uint64_t id = ps->id, rec = ps->rec, count = ps->count;
	uint64_t paused_count = ps->paused_count;
	uint64_t lost_paused = ps->lost_paused, lost_end = ps->lost_end;
	int n = ps->n, lost_at = ps->lost_at, samples_after = ps->samples_after;
	const struct lost_rec l = ps->l;

	pa_diag("%s: count %llu (%llu while paused); LOST read %llu while paused, %llu at the end; data_head %llu %llu %llu %llu; %d samples, PERF_RECORD_LOST {lost %llu} after sample %d",
		pa_hit_class_name(c), (unsigned long long)count, (unsigned long long)paused_count,
		(unsigned long long)lost_paused, (unsigned long long)lost_end,
		(unsigned long long)head[0], (unsigned long long)head[1],
		(unsigned long long)head[2], (unsigned long long)head[3], n,
		(unsigned long long)l.lost, lost_at);
	if (ps->throttled)
		pa_throttled_in_burst(PAUSE_BEFORE + PAUSE_PAUSED + PAUSE_AFTER);

	/* counting went on while paused */
	EXPECT_EQ(paused_count, PAUSE_BEFORE + PAUSE_PAUSED);
	EXPECT_EQ(count, PAUSE_BEFORE + PAUSE_PAUSED + PAUSE_AFTER);
	EXPECT_EQ(head[0], PAUSE_BEFORE * rec);
	EXPECT_EQ(head[1], head[0]);		/* paused: nothing written */
	EXPECT_EQ(head[2], head[0]);
	EXPECT_EQ(head[3], head[0] + sizeof(struct lost_rec) + PAUSE_AFTER * rec);
	if (ps->lost_fmt) {
		EXPECT_EQ(lost_paused, PAUSE_PAUSED);	/* each drop counted */
		EXPECT_EQ(lost_end, PAUSE_PAUSED);	/* and no more */
	}
	EXPECT_EQ(n, PAUSE_BEFORE + PAUSE_AFTER);
	ASSERT_TRUE(lost_at >= 0);
	EXPECT_EQ(lost_at, PAUSE_BEFORE);	/* between the two runs of samples */
	EXPECT_EQ(samples_after, PAUSE_AFTER);
	EXPECT_EQ(l.id, id);
	EXPECT_EQ(l.lost, PAUSE_PAUSED);
}

void pa_hit_expect_pause_output_lost(enum pa_hit_class c)
{
	int want;
	struct perf_event_attr a = pa_hit_attr(c, &want);
	/* PERF_FORMAT_LOST is 6.0's; before it the bit is EINVAL, and the
	 * PERF_RECORD_LOST (4.7, with PAUSE_OUTPUT) is the only account */
	bool lost_fmt = pa_since("6.0", "read_format PERF_FORMAT_LOST");
	struct pause_seen ps = { .lost_fmt = lost_fmt };
	uint64_t id, lost_paused = 0;
	struct pa_ring r;
	int fd;

	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID;	/* no PERIOD: every hit is one
						 * overflow all the same */
	if (c == PA_HIT_WATCHPOINT)
		a.sample_type |= PERF_SAMPLE_ADDR;	/* perf_bp_event(): bp_addr */
	if (lost_fmt)
		a.read_format = PERF_FORMAT_LOST;
	ps.rec = pa_sample_size(&a, NULL);
	fd = EXPECT_OPEN_RESULT(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return;		/* the refusal the rules give was the check */
	ASSERT_GE(fd, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ps.id = id;
	pa_ring_map(&r, fd, 8);
	pa_ring_prefault(&r);
	pa_hit(c, 1);			/* disabled: nothing */
	ASSERT_EQ(read_value_lost(fd, lost_fmt, &lost_paused), 0);
	ASSERT_EQ(pa_ring_head(&r), 0);
	ps.lost_paused = lost_paused;

	pause_output_steps(c, fd, &r, &ps);
	pause_output_records(&a, &r, &ps);
	pa_ring_unmap(&r);
	close(fd);
	pause_output_verdict(c, &ps);
}

/* ---- exclude_user / exclude_kernel ---------------------------------------- */
/* The open rule of class c's PMU itself, and with exclude_kernel clear the
 * right to count the kernel first (perf_event_open() checks
 * perf_allow_kernel() before any PMU's event_init). */
static int class_errno(enum pa_hit_class c, const struct perf_event_attr *a)
{
	int pmu;

	switch (c) {
	case PA_HIT_KPROBE:
		pmu = pa_expected_errno(PA_NEED_KPROBE_PMU);
		break;
	case PA_HIT_UPROBE:
		pmu = pa_expected_errno(PA_NEED_UPROBE_PMU);
		break;
	default:
		pmu = pa_expected_errno(PA_NEED_SELF);
		break;
	}
	return a->exclude_kernel ? pmu : pa_expected_errno_or(PA_NEED_KERNEL, pmu);
}

/*
 * Open a (errno `want` by the rules), then ENABLE, p->hits pa_hit()s and
 * p->kernel_stores one-byte read()s from a pipe into the watchpoint's word
 * (copy_to_user() stores each byte in kernel mode; the pipe is filled
 * beforehand), DISABLE: the count, or -1 when the open was refused as the
 * rules say. One event at a time: under QEMU's TCG two watchpoints on one
 * word do not both trap (the second counted 0 in the 6.12.117 guest).
 */
static int64_t count_pass(enum pa_hit_class c, struct perf_event_attr *a, int want,
			  const struct pa_hit_exclude *p)
{
	char bytes[64] = { 0 };
	int fd, pfd[2];
	uint64_t v;

	fd = EXPECT_OPEN_RESULT(a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return -1;
	ASSERT_GE(fd, 0);
	ASSERT_LE(p->kernel_stores, (int)sizeof(bytes));
	ASSERT_OK(pipe2(pfd, O_CLOEXEC));
	ASSERT_EQ(write(pfd[1], bytes, (size_t)p->kernel_stores), p->kernel_stores);
	pa_hit(c, 1);		/* disabled: not counted */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_hit(c, p->hits);
	for (int i = 0; i < p->kernel_stores; i++)
		ASSERT_EQ(read(pfd[0], (void *)(uintptr_t)a->bp_addr, 1), 1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	v = pa_read_one(fd);
	close(pfd[0]);
	close(pfd[1]);
	close(fd);
	return (int64_t)v;
}

void pa_hit_expect_exclude(enum pa_hit_class c, const struct pa_hit_exclude *p)
{
	int want, twant, ewant;
	struct perf_event_attr base = pa_hit_attr(c, &want);
	struct perf_event_attr e = base, t = base;
	int64_t ev, tv;

	(void)want;
	if (p->kernel_stores && c != PA_HIT_WATCHPOINT) {
		pa_fail("kernel_stores are stores into a watched word: a watchpoint's");
		return;
	}
#if !defined(__x86_64__)
	/* arm64's uaccess stores are unprivileged (sttr): whether and with
	 * which registers their trap is reported is not known here */
	if (p->kernel_stores)
		pa_skip("a kernel-mode store's watchpoint trap is known here on x86-64 only");
#endif
	e.exclude_user = p->exclude_user;
	e.exclude_kernel = p->exclude_kernel;
	t.exclude_user = 0;	/* the twin counts every mode */
	t.exclude_kernel = 0;
	ewant = class_errno(c, &e);
	twant = class_errno(c, &t);

	ev = count_pass(c, &e, ewant, p);
	if (ev < 0)
		return;		/* the refusal the rules give was the check */
	pa_diag("%s, exclude_user %d exclude_kernel %d: %lld over %d hits from this task%s%.0d",
		pa_hit_class_name(c), p->exclude_user, p->exclude_kernel, (long long)ev,
		p->hits, p->kernel_stores ? " and kernel-mode stores: " : "", p->kernel_stores);
	EXPECT_EQ(ev, (int64_t)p->want);

	tv = count_pass(c, &t, twant, p);
	if (tv < 0) {
		pa_diag("the twin with exclude_user and exclude_kernel clear is refused here (%s), as the rules say: only the event under test is counted",
			pa_errno_name(twant));
		return;
	}
	/* the same hits made again: every one happened */
	EXPECT_EQ(tv, (int64_t)(p->hits + p->kernel_stores));
}

/* ---- inherit --------------------------------------------------------------- */
#define INH_BEFORE	3	/* the parent, before the fork */
#define INH_CHILD	5	/* the child */
#define INH_AFTER	2	/* the parent, after the child was reaped */

void pa_hit_expect_inherit_folds(enum pa_hit_class c)
{
	int want, fd, ifd, st;
	struct perf_event_attr own = pa_hit_attr(c, &want);
	struct perf_event_attr inh = own;
	uint64_t ov, iv;
	pid_t pid;

	inh.inherit = 1;
	/* The non-inherited event, open beside the inherited one, is the
	 * check of the parent's own hits and keeps the child's context from
	 * being a clone of the parent's: no context swap at a switch
	 * (probe/uprobe_fork_child_counted_only_inherited's note). */
	fd = EXPECT_OPEN_RESULT(&own, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return;		/* the refusal the rules give was the check */
	ASSERT_GE(fd, 0);
	ifd = ASSERT_OPEN(&inh, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	pa_hit(c, 1);		/* disabled: not counted */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_OK(ioctl(ifd, PERF_EVENT_IOC_ENABLE, 0));
	pa_hit(c, INH_BEFORE);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		pa_hit(c, INH_CHILD);
		_exit(0);
	}
	ASSERT_EQ(waitpid(pid, &st, 0), pid);
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	pa_hit(c, INH_AFTER);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(ifd, PERF_EVENT_IOC_DISABLE, 0));
	ov = pa_read_one(fd);
	iv = pa_read_one(ifd);
	pa_diag("%s: not inherited %llu, inherited %llu (parent %d + %d, child %d)",
		pa_hit_class_name(c), (unsigned long long)ov, (unsigned long long)iv,
		INH_BEFORE, INH_AFTER, INH_CHILD);
	EXPECT_EQ(ov, INH_BEFORE + INH_AFTER);
	EXPECT_EQ(iv, INH_BEFORE + INH_CHILD + INH_AFTER);
	close(ifd);
	close(fd);
}
