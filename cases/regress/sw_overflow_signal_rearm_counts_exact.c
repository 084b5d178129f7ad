#include "perfabi.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/*
 * a8b0ca17b80e: before 3.1 a software event's overflow was told by an
 * "nmi" argument whether it could act at once. The cpu-clock hrtimer
 * (and the page-fault path) passed nmi = 0, so the overflow that used up
 * a PERF_EVENT_IOC_REFRESH limit called perf_event_disable() right there:
 * from inside the hrtimer callback, which cancelled its own timer and
 * waited for itself forever (an unkillable task, a locked machine: the
 * pattern of a SIGIO handler that re-arms the event with REFRESH(1)).
 * Since the fix the disable and the wakeup always go through irq_work.
 *
 * That configuration, with exact results: a thread whose SIGIO-style
 * handler (F_SETOWN_EX to the thread, F_SETSIG SIGRTMIN, O_ASYNC) takes
 * each overflow and re-arms the event with REFRESH(1).
 * - page faults, period 1, N fresh pages: N samples, the i-th at page i
 *   with this pid and the thread's tid; N signals, each POLL_HUP for the
 *   event's fd; the count is N;
 * - cpu-clock, period 1 ms: as many samples as signals (each POLL_HUP,
 *   each sample of the thread with period 1 ms), at least 20.
 */
#define NPAGES		48
#define CLOCK_PERIOD	1000000ULL	/* 1 ms */
#define CLOCK_SIGS	20
#define MAX_SIGS	256

static int ev_fd = -1;
static atomic_int armed;
static atomic_int nsig;
static int sig_code[MAX_SIGS], sig_fd[MAX_SIGS];
static atomic_int rearm_err;

static void on_overflow(int sig, siginfo_t *si, void *uc)
{
	int n = atomic_fetch_add(&nsig, 1);

	(void)sig;
	(void)uc;
	if (n < MAX_SIGS) {
		sig_code[n] = si->si_code;
		sig_fd[n] = si->si_fd;
	}
	if (atomic_load(&armed) && ioctl(ev_fd, PERF_EVENT_IOC_REFRESH, 1))
		atomic_store(&rearm_err, errno);
}

struct run {
	bool clock;
	char *pages;
	long psz;
	pid_t tid;
	int pipe_ready[2], pipe_go[2];
	int err;		/* errno of a failed step in the thread */
	uint64_t cpu_ms;	/* cpu-clock leg: CPU time used */
};

static void *worker(void *arg)
{
	struct run *r = arg;
	sigset_t set;
	char c = 0;

	r->tid = (pid_t)syscall(SYS_gettid);
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	/* one signal now, unarmed: the handler and the signal return path
	 * are faulted in before anything is counted */
	syscall(SYS_tgkill, getpid(), r->tid, SIGRTMIN);
	pa_store_byte(r->pages + NPAGES * r->psz);	/* warm-up page */
	if (write(r->pipe_ready[1], &c, 1) != 1 || read(r->pipe_go[0], &c, 1) != 1) {
		r->err = EPIPE;
		return NULL;
	}
	atomic_store(&armed, 1);
	if (ioctl(ev_fd, PERF_EVENT_IOC_REFRESH, 1)) {
		r->err = errno;
		return NULL;
	}
	if (!r->clock) {
		for (int i = 0; i < NPAGES; i++)
			pa_store_byte(r->pages + i * r->psz);
	} else {
		while (atomic_load(&nsig) < CLOCK_SIGS + 1 && r->cpu_ms < 3000) {
			pa_work_cpu_ms(1);
			r->cpu_ms++;
		}
	}
	atomic_store(&armed, 0);
	if (ioctl(ev_fd, PERF_EVENT_IOC_DISABLE, 0))
		r->err = errno;
	/* a signal still queued for an overflow before DISABLE is taken
	 * here, on the way back from the sleep */
	pa_sleep_ms(20);
	return NULL;
}

static void leg(bool clock)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(clock ? PERF_COUNT_SW_CPU_CLOCK :
							  PERF_COUNT_SW_PAGE_FAULTS,
							  clock ? CLOCK_PERIOD : 1);
	const char *what = clock ? "cpu-clock" : "page-faults";
	struct f_owner_ex own;
	struct run r = { .clock = clock };
	const struct perf_event_header *h;
	struct pa_sample s;
	struct pa_ring ring;
	pthread_t th;
	int n, samples = 0;
	char c = 'g';

	atomic_store(&nsig, 0);
	atomic_store(&armed, 0);
	atomic_store(&rearm_err, 0);
	r.psz = sysconf(_SC_PAGESIZE);
	r.pages = mmap(NULL, (NPAGES + 1) * r.psz, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(r.pages != MAP_FAILED);
	madvise(r.pages, (NPAGES + 1) * r.psz, MADV_NOHUGEPAGE);
	ASSERT_OK(pipe(r.pipe_ready));
	ASSERT_OK(pipe(r.pipe_go));
	ASSERT_EQ(pthread_create(&th, NULL, worker, &r), 0);
	ASSERT_EQ(read(r.pipe_ready[0], &c, 1), 1);

	attr.disabled = 1;
	attr.wakeup_events = 1;
	attr.sample_type = PERF_SAMPLE_TID | (clock ? PERF_SAMPLE_PERIOD : PERF_SAMPLE_ADDR);
	ev_fd = ASSERT_OPEN(&attr, r.tid, -1, -1, 0);
	pa_ring_map(&ring, ev_fd, 1);
	pa_ring_prefault(&ring);
	own.type = F_OWNER_TID;
	own.pid = r.tid;
	ASSERT_OK(fcntl(ev_fd, F_SETOWN_EX, &own));
	ASSERT_OK(fcntl(ev_fd, F_SETSIG, SIGRTMIN));
	ASSERT_OK(fcntl(ev_fd, F_SETFL, fcntl(ev_fd, F_GETFL) | O_ASYNC));
	atomic_store(&nsig, 0);	/* the warm-up signal is not an overflow */

	ASSERT_EQ(write(r.pipe_go[1], &c, 1), 1);
	pthread_join(th, NULL);
	if (r.err)
		pa_fail("%s: a step in the thread failed: %s", what, pa_errno_name(r.err));
	if (atomic_load(&rearm_err))
		pa_fail("%s: REFRESH in the handler failed: %s", what,
			pa_errno_name(atomic_load(&rearm_err)));

	n = atomic_load(&nsig);
	pa_diag("%s: %d overflow signals%s", what, n,
		clock ? "" : " for the page stores");
	for (int i = 0; i < n && i < MAX_SIGS; i++) {
		if (sig_code[i] != POLL_HUP || sig_fd[i] != ev_fd) {
			pa_fail("%s: signal %d: si_code %d si_fd %d, want POLL_HUP (%d) and %d",
				what, i, sig_code[i], sig_fd[i], POLL_HUP, ev_fd);
			break;
		}
	}
	while ((h = pa_ring_next(&ring))) {
		if (h->type != PERF_RECORD_SAMPLE) {
			pa_fail("%s: unexpected record type %u", what, h->type);
			continue;
		}
		if (!pa_sample_parse(&attr, h, &s))
			continue;
		EXPECT_EQ(s.pid, (uint32_t)getpid());
		EXPECT_EQ(s.tid, (uint32_t)r.tid);
		if (clock)
			EXPECT_EQ(s.period, CLOCK_PERIOD);
		else if (samples < NPAGES)
			EXPECT_EQ(s.addr, (uint64_t)(uintptr_t)(r.pages + samples * r.psz));
		samples++;
	}
	if (clock) {
		EXPECT_GE(n, CLOCK_SIGS);
		EXPECT_EQ(samples, n);
	} else {
		EXPECT_EQ(n, NPAGES);
		EXPECT_EQ(samples, NPAGES);
		EXPECT_EQ(pa_read_one(ev_fd), NPAGES);
	}
	pa_ring_unmap(&ring);
	close(ev_fd);
	ev_fd = -1;
	close(r.pipe_ready[0]);
	close(r.pipe_ready[1]);
	close(r.pipe_go[0]);
	close(r.pipe_go[1]);
	munmap(r.pages, (NPAGES + 1) * r.psz);
}

PERFABI_CASE(
	.assertion = "a software event whose overflow signal handler re-arms it with PERF_EVENT_IOC_REFRESH(1) delivers one overflow per period, each a sample and a POLL_HUP signal: a period-1 page-fault sampler over N fresh pages gives exactly N samples (the i-th at page i, pid and tid of the thread) and N signals; a cpu-clock sampler gives as many samples as signals; the overflow that uses up the limit never disables the event in place (no hang)",
	.ref = "\"perf: Remove the nmi parameter from the swevent and overflow interface\" a8b0ca17b80e (3.1, CVE-2011-2918): kernel/events/core.c __perf_event_overflow() disables through irq_work (pending_disable) from every context, perf_swevent_hrtimer()",
	.covers = "ioctl.REFRESH sw.CPU_CLOCK sw.PAGE_FAULTS sample.ADDR sample.TID sample.PERIOD fd.O_ASYNC fd.F_SETOWN_EX",
	.fix = { .commit = "a8b0ca17b80e", .subject = "perf: Remove the nmi parameter from the swevent and overflow interface", .release = "3.1", .cve = "CVE-2011-2918" },
	.probe = pa_probe_self_perf,
	.destructive = true,
	.xfail = {
		.from = "2.6.32",	/* cpu-clock sampling on hrtimers, with the nmi argument */
		.to = "3.1",
		.why = "the overflow exhausting the REFRESH limit called perf_event_disable() from the cpu-clock hrtimer callback (nmi = 0), which cancelled its own timer and waited on itself: hang",
		.fix = "a8b0ca17b80e",
	},
	.timeout = 20,
) {
	struct pa_kver k = pa_kernel();
	struct sigaction sa;

	/* 6.17.0 to 6.17.7 hang on REFRESH in cpu-clock's own hrtimer for
	 * another reason (18dbcbfabfff, fixed by eb3182ef0405 in 6.18 and
	 * 6.17.8): clock_event_refresh_limit_stops_once checks that one */
	if (k.major == 6 && k.minor == 17 && k.patch < 8)
		pa_skip("6.17.%d stops a cpu-clock event inside its own hrtimer (hangs before eb3182ef0405)",
			k.patch);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_overflow;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	ASSERT_OK(sigaction(SIGRTMIN, &sa, NULL));
	pa_sig_block(SIGRTMIN);	/* only the worker thread takes it */
	leg(false);
	leg(true);
}
