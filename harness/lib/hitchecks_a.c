// SPDX-License-Identifier: GPL-2.0
/*
 * perfabi: behaviours of the behaviour x class table (cases/impl-table.md)
 * checked once for every hit class (harness/lib/hits.c): freq mode, the
 * overflow signal, sigtrap and IOC_RESET. Each check opens its events with
 * pa_hit_attr(), makes the hits with pa_hit() and holds the oracle; a case
 * names the class and the class-specific expectation, and its header says
 * which kernel path delivers that class's hits.
 *
 * The four hit classes reach the same core code: every hit is one
 * perf_swevent_event(event, 1, data, regs) (from perf_tp_event() for the
 * tracepoint, the uprobe and the kprobe, from perf_bp_event() for the
 * watchpoint), which adds 1 to event->count and, on a sampling event,
 * counts the period down in hw.period_left and calls
 * perf_swevent_overflow() -> __perf_event_overflow() when it runs out.
 *
 * None of the checks below expects a THROTTLE record: a hit is one event
 * and at most one overflow, and perf_swevent_overflow() passes throttle = 0
 * to the first overflow of a call, so __perf_event_account_interrupt()
 * never throttles these events, whatever perf_event_max_sample_rate is.
 */
#include "perfabi.h"

#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

/* Read every record of r: the number of PERF_RECORD_SAMPLEs (sample_type
 * TID and, for a watchpoint, ADDR: then each at the watched address), each
 * of this thread. Any other record is
 * a failure (see above: no THROTTLE, and the rings are never full). */
static int hit_samples(struct pa_ring *r, const struct perf_event_attr *a)
{
	struct pa_sample s;
	int n = 0;

	while (pa_ring_own_sample(r, a, &s)) {
		if (a->sample_type & PERF_SAMPLE_ADDR)	/* perf_bp_event(): bp_addr */
			EXPECT_EQ(s.addr, a->bp_addr);
		n++;
	}
	return n;
}

/* ---- freq: sample_freq adapts the period --------------------------------- */
#define FREQ_HITS	256
#define FREQ_MAX	64	/* fewer samples than this: the period adapted */

struct freq_pair {
	enum pa_hit_class c;
	struct perf_event_attr f, p;	/* the freq event, its period-1 twin */
};

/* One try: the freq event and its period-1 twin over FREQ_HITS hits each;
 * false when the clock gave the period no chance (lib/freq.c). */
static bool freq_try(void *arg)
{
	const struct freq_pair *fr = arg;
	enum pa_hit_class c = fr->c;
	struct perf_event_attr f = fr->f, p = fr->p;
	struct pa_ring rf, rp;
	int ff, fp, np;
	bool verdict;

	ff = ASSERT_OPEN(&f, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	fp = ASSERT_OPEN(&p, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&rf, ff, 4);	/* 256 samples of 32 bytes: a half */
	pa_ring_map(&rp, fp, 4);	/* 256 samples of 16 bytes: a quarter */
	pa_ring_prefault(&rf);
	pa_ring_prefault(&rp);
	pa_hit(c, 1);			/* disabled: nothing */

	/* one event after the other: for the watchpoint class, two debug
	 * registers on one word need the CPU to report both for one store
	 * (x86 hw_breakpoint_handler() serves each DR6 bit set), and QEMU
	 * TCG apparently sets only the first one's */
	ASSERT_OK(ioctl(ff, PERF_EVENT_IOC_ENABLE, 0));
	pa_hit(c, FREQ_HITS);		/* as fast as they come */
	ASSERT_OK(ioctl(ff, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_OK(ioctl(fp, PERF_EVENT_IOC_ENABLE, 0));
	pa_hit(c, FREQ_HITS);
	ASSERT_OK(ioctl(fp, PERF_EVENT_IOC_DISABLE, 0));
	pa_hit(c, 1);			/* both disabled again */

	pa_diag("%s, %d hits each", pa_hit_class_name(c), FREQ_HITS);
	verdict = pa_freq_try_verdict(&rf, &f, FREQ_MAX);
	np = hit_samples(&rp, &p);
	/* each counts its 256 hits: freq changes the sampling, not the count */
	EXPECT_EQ(pa_read_one(ff), (uint64_t)FREQ_HITS);
	EXPECT_EQ(pa_read_one(fp), (uint64_t)FREQ_HITS);
	EXPECT_EQ(np, FREQ_HITS);
	pa_ring_unmap(&rf);
	pa_ring_unmap(&rp);
	close(ff);
	close(fp);
	return verdict;
}

void pa_hit_expect_freq_adapts(enum pa_hit_class c)
{
	struct freq_pair fr = { .c = c };
	int want, fd;

	fr.f = pa_hit_attr(c, &want);
	fr.p = fr.f;
	/* freq = 1, sample_freq = 1: a rate, one sample a second; the kernel
	 * starts the period at 1 (perf_event_alloc(): hw.sample_period = 1
	 * where attr.freq && attr.sample_freq) */
	fr.f.freq = 1;
	fr.f.sample_freq = 1;
	fr.f.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	/* the twin: sample_period 1, every hit a sample */
	fr.p.sample_period = 1;
	fr.p.sample_type = PERF_SAMPLE_TID;
	fd = EXPECT_OPEN_RESULT(&fr.f, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return;		/* the refusal the rules give was the check */
	ASSERT_GE(fd, 0);
	close(fd);
	pa_freq_expect_adapts(freq_try, &fr, FREQ_HITS, "hits");
}

/* ---- the overflow signal: O_ASYNC, F_SETOWN, F_SETSIG ---------------------- */
#define SIGIO_HITS	8

void pa_hit_expect_sigio_each_overflow(enum pa_hit_class c)
{
	struct perf_event_attr a;
	struct pa_sigs got;
	struct pa_ring r;
	siginfo_t si;
	int want, fd, samples;
	uint64_t n;

	a = pa_hit_attr(c, &want);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID;
	if (c == PA_HIT_WATCHPOINT)
		a.sample_type |= PERF_SAMPLE_ADDR;	/* each at bp_addr */
	a.wakeup_events = 0;
	fd = EXPECT_OPEN_RESULT(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	pa_sigs_route(&got, fd, SIGRTMIN);	/* F_SETOWN, F_SETSIG, O_ASYNC */
	pa_hit(c, 1);				/* disabled: nothing */
	ASSERT_EQ(pa_sig_wait(SIGRTMIN, &si, 0), 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int step = 1; step <= SIGIO_HITS; step++) {
		pa_hit(c, 1);
		/* one overflow, one irq_work: wait for its signal before
		 * the next, so that no two overflows share one run */
		if (!pa_sig_wait(SIGRTMIN, &si, 10000)) {
			pa_fail("no signal within 10 s of hit %d", step);
			break;
		}
		pa_sigs_record(&got, &si);
		while (pa_sig_wait(SIGRTMIN, &si, 0))
			pa_sigs_record(&got, &si);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hit(c, 1);				/* disabled again */
	n = pa_read_one(fd);
	pa_sigs_settle(&got, n);
	pa_diag("%s: %llu overflows, %d signals, %llu bytes in the ring", pa_hit_class_name(c),
		(unsigned long long)n, got.n, (unsigned long long)pa_ring_head(&r));
	/* the samples stayed below the half-buffer wakeup: the signals are
	 * the overflows', not the ring's */
	ASSERT_LE(pa_ring_head(&r), r.data_size / 2);
	samples = hit_samples(&r, &a);
	EXPECT_EQ(n, (uint64_t)SIGIO_HITS);
	EXPECT_EQ(samples, SIGIO_HITS);
	EXPECT_EQ(got.n, SIGIO_HITS);
	for (int i = 0; i < got.n && i < PA_MAX_SIGS; i++) {
		EXPECT_EQ(got.code[i], POLL_IN);
		EXPECT_EQ(got.band[i], (long)(POLLIN | POLLRDNORM));
		EXPECT_EQ(got.fd[i], fd);
	}
	pa_ring_unmap(&r);
	close(fd);
}

/* ---- sigtrap: SIGTRAP/TRAP_PERF per overflow ------------------------------ */
#define TRAP_HITS	5
#define TRAP_MAX	16
#define TRAP_DATA	0x7ab1e5eed0c0ffeeULL

static volatile sig_atomic_t traps;
static volatile int trap_code[TRAP_MAX];
static void *volatile trap_addr[TRAP_MAX];
static volatile uint64_t trap_data[TRAP_MAX];
static volatile uint32_t trap_type[TRAP_MAX], trap_flags[TRAP_MAX];

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	const char *perf = (const char *)&si->si_addr + sizeof(void *);
	unsigned long data;
	uint32_t type, flags;
	int n = traps;

	(void)sig;
	(void)uc;
	if (n < TRAP_MAX) {
		/* glibc may lack si_perf_*: the kernel's _sigfault._perf is
		 * {unsigned long _data; u32 _type; u32 _flags} right after
		 * si_addr */
		memcpy(&data, perf, sizeof(data));
		memcpy(&type, perf + sizeof(unsigned long), sizeof(type));
		memcpy(&flags, perf + sizeof(unsigned long) + sizeof(uint32_t), sizeof(flags));
		trap_code[n] = si->si_code;
		trap_addr[n] = si->si_addr;
		trap_data[n] = data;
		trap_type[n] = type;
		trap_flags[n] = flags;
	}
	traps = n + 1;
}

/* Until traps reaches want or 10 s passed: false at the timeout. */
static bool traps_reach(int want)
{
	for (int i = 0; i < 10000 && traps < want; i++)
		usleep(1000);
	return traps >= want;
}

void pa_hit_expect_sigtrap_each_overflow(enum pa_hit_class c, uint32_t si_perf_type)
{
	struct perf_event_attr a;
	struct sigaction sa;
	struct pa_ring r;
	int want, fd, samples, n;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ASSERT_OK(sigaction(SIGTRAP, &sa, NULL));

	a = pa_hit_attr(c, &want);
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID;	/* no PERF_SAMPLE_ADDR: si_addr 0 */
	a.sigtrap = 1;
	a.remove_on_exec = 1;			/* sigtrap requires it */
	a.sig_data = TRAP_DATA;
	fd = EXPECT_OPEN_RESULT(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);
	pa_hit(c, 1);				/* disabled: nothing */
	EXPECT_EQ(traps, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int step = 1; step <= TRAP_HITS; step++) {
		pa_hit(c, 1);
		/* queued as task work, sent on the way back to user space:
		 * the next hit finds pending_work clear */
		if (!traps_reach(step)) {
			pa_fail("no SIGTRAP within 10 s of hit %d (%d so far)", step, (int)traps);
			break;
		}
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	/* the DISABLE and this hit return to user space: any task work
	 * still queued has run by now, a doubled SIGTRAP would be counted */
	pa_hit(c, 1);				/* disabled again */
	n = traps;
	samples = hit_samples(&r, &a);
	pa_diag("%s: count %llu, %d samples, %d SIGTRAPs", pa_hit_class_name(c),
		(unsigned long long)pa_read_one(fd), samples, n);
	EXPECT_EQ(pa_read_one(fd), (uint64_t)TRAP_HITS);
	EXPECT_EQ(samples, TRAP_HITS);
	EXPECT_EQ(n, TRAP_HITS);
	for (int i = 0; i < n && i < TRAP_MAX; i++) {
		EXPECT_EQ(trap_code[i], TRAP_PERF);
		EXPECT_EQ((uint64_t)(uintptr_t)trap_addr[i], 0);
		EXPECT_EQ(trap_data[i], TRAP_DATA);
		EXPECT_EQ(trap_type[i], si_perf_type);
		EXPECT_EQ(trap_flags[i], 0);	/* not TRAP_PERF_FLAG_ASYNC */
	}
	pa_ring_unmap(&r);
	close(fd);
}

/* ---- IOC_RESET zeroes the count ------------------------------------------- */
void pa_hit_expect_reset_zeroes_count(enum pa_hit_class c)
{
	struct perf_event_attr attr;
	uint64_t a[3], b[3];	/* {value, time_enabled, time_running} */
	int want, fd;

	attr = pa_hit_attr(c, &want);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = EXPECT_OPEN_RESULT(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, want);
	if (want)
		return;
	ASSERT_GE(fd, 0);
	pa_hit(c, 1);		/* disabled: not counted */
	pa_read_u64(fd, a, 3);
	ASSERT_EQ(a[0], 0);

	/* running */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_hit(c, 10);
	pa_work_cpu_ms(5);	/* the times advance, however coarse the clock */
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 10);
	ASSERT_GT(a[1], 0);
	ASSERT_GT(a[2], 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_read_u64(fd, b, 3);
	EXPECT_EQ(b[0], 0);
	EXPECT_GE(b[1], a[1]);	/* running: the times go on from where they were */
	EXPECT_GE(b[2], a[2]);
	pa_hit(c, 5);
	pa_work_cpu_ms(5);
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 5);	/* counted on from zero */
	EXPECT_GT(a[1], b[1]);

	/* stopped */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hit(c, 3);		/* disabled again: not counted */
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 5);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	pa_read_u64(fd, b, 3);
	EXPECT_EQ(b[0], 0);
	EXPECT_EQ(b[1], a[1]);	/* disabled: times frozen, not reset */
	EXPECT_EQ(b[2], a[2]);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_hit(c, 3);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd, a, 3);
	EXPECT_EQ(a[0], 3);	/* enabled again: from zero */
	close(fd);
}
