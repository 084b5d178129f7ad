#include "perfabi.h"

#include <signal.h>
#include <sys/ioctl.h>

/*
 * sigtrap on a cpu-clock or task-clock sampler: every overflow of the
 * event's hrtimer sends this thread a SIGTRAP (si_code TRAP_PERF) whose
 * si_perf_type is the type the event was opened with. The clocks are
 * opened as PERF_TYPE_SOFTWARE, but perf_swevent_init() hands them to
 * their own PMUs (perf_cpu_clock, perf_task_clock), whose type is dynamic:
 * perf_sigtrap() sends event->orig_type, the attr.type of the open, which
 * must still be PERF_TYPE_SOFTWARE (1).
 *
 * The timer fires in hard irq context; with exclude_kernel only expiries
 * that interrupted user mode overflow (perf_swevent_hrtimer() ->
 * perf_exclude_event()), and such an interrupt returns straight to user
 * mode, where the task work queued by __perf_event_overflow() sends the
 * signal before the thread runs on: each overflow has its signal before
 * the next one (2 ms of the clock later), and each writes one sample. So
 * the SIGTRAPs equal the samples in the ring, exactly. The case spins
 * until K signals came (bounded at 5 s of this thread's CPU time, 2500
 * periods), then disables the event.
 *
 * PARKED: in the nocgroups sweep guest (Debian 6.12.117 minimal, QEMU
 * TCG) task-clock gave 10 SIGTRAPs for 11 samples (cpu-clock 10 and 10);
 * on 6.18.44 it passed 20 of 20. The kernel says why in
 * __perf_event_overflow(): an event whose task work is still pending
 * queues no second one, and "events that can overflow again before the
 * IRQ-work without user space progress (e.g. hrtimer)" are an exception
 * it names: a late hrtimer re-armed into the past fires again in the same
 * hrtimer_interrupt(), so two overflows share one SIGTRAP. "One SIGTRAP
 * per overflow" is therefore not the clocks' behaviour where timers run
 * late. What settles it: an oracle for what holds (every SIGTRAP follows
 * a sample; signals <= samples; each handler sees data_head advanced) or
 * the man page's word on coalescing.
 */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

#define PERIOD_NS	2000000ULL	/* 2 ms */
#define K		10
#define WAIT_MS		5000
#define SIG_DATA	0xc10c5eedf00dULL
#define MAXT		256

struct trap {
	int code;
	uint32_t type;
	uint64_t data;
	void *addr;
};

static volatile sig_atomic_t hits;
static struct trap traps[MAXT];

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	/* glibc 2.36 has no si_perf_*: the kernel's _sigfault._perf is
	 * {unsigned long _data; u32 _type; u32 _flags;} right after si_addr */
	const char *perf = (const char *)&si->si_addr + sizeof(void *);
	unsigned long data;
	uint32_t type;

	(void)sig;
	(void)uc;
	memcpy(&data, perf, sizeof(data));
	memcpy(&type, perf + sizeof(data), sizeof(type));
	if (hits < MAXT)
		traps[hits] = (struct trap){ si->si_code, type, data, si->si_addr };
	hits++;
}

static void traps_each_overflow(uint64_t config, const char *name)
{
	struct perf_event_attr attr = pa_sw_sampling_attr(config, PERIOD_NS);
	const struct perf_event_header *h;
	struct pa_sample s;
	struct pa_ring r;
	uint64_t end;
	int fd, n = 0, got;

	attr.disabled = 1;
	attr.sample_type = PERF_SAMPLE_TID;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = SIG_DATA;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	pa_ring_map(&r, fd, 4);
	pa_ring_prefault(&r);
	pa_work_cpu_ms(5);		/* fault in the code and stack first */
	hits = 0;

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	end = pa_clock_ns(CLOCK_THREAD_CPUTIME_ID) + (uint64_t)WAIT_MS * 1000000ULL;
	while (hits < K && pa_clock_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		pa_busy_loop(100000);	/* ~0.1 ms in user mode a check */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	got = hits;		/* the last overflow's signal came before the ioctl returned */
	if (got < K)
		pa_fail("%s: %d SIGTRAPs within %d ms of CPU time, at a period of %llu ns",
			name, got, WAIT_MS, (unsigned long long)PERIOD_NS);

	while ((h = pa_ring_next(&r))) {
		ASSERT_EQ(h->type, PERF_RECORD_SAMPLE);
		if (!pa_sample_parse(&attr, h, &s))
			pa_abort();
		EXPECT_EQ(h->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
		EXPECT_EQ(s.tid, (uint32_t)gettid());
		n++;
	}
	pa_diag("%s: %d SIGTRAPs, %d samples, count %llu ns", name, got, n,
		(unsigned long long)pa_read_one(fd));
	EXPECT_EQ(got, n);		/* one signal per overflow */
	for (int i = 0; i < got && i < MAXT; i++) {
		EXPECT_EQ(traps[i].code, TRAP_PERF);
		EXPECT_EQ(traps[i].type, (uint32_t)PERF_TYPE_SOFTWARE);
		EXPECT_EQ(traps[i].data, SIG_DATA);
		EXPECT_TRUE(traps[i].addr == NULL);
	}
	pa_ring_unmap(&r);
	close(fd);
}

PERFABI_CASE(
	.assertion = "a cpu-clock or task-clock sampling event with sigtrap sends one SIGTRAP per overflow, each with si_code TRAP_PERF, si_perf_type PERF_TYPE_SOFTWARE (the type it was opened with, though the clocks run on PMUs of their own), si_perf_data = attr.sig_data and si_addr 0: after 10 SIGTRAPs at a 2 ms period, the SIGTRAPs equal the samples written",
	.ref = "perf_event_open(2), struct perf_event_attr; include/uapi/linux/perf_event.h sigtrap \"send synchronous SIGTRAP on event\", sig_data (5.13); siginfo si_perf_type/si_perf_data (0683b53197b5); kernel/events/core.c perf_swevent_init() (clocks moved to perf_cpu_clock/perf_task_clock), perf_event_alloc() (orig_type), __perf_event_overflow(), perf_sigtrap(): send_sig_perf(pending_addr, orig_type, sig_data)",
	.covers = "attr.sigtrap attr.sig_data attr.remove_on_exec sw.CPU_CLOCK sw.TASK_CLOCK type.SOFTWARE record.SAMPLE",
	.min_kernel = "5.13",
	.features = "hrtimer",
	.probe = pa_probe_self_perf,
	.timeout = 30,
) {
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ASSERT_OK(sigaction(SIGTRAP, &sa, NULL));
	traps_each_overflow(PERF_COUNT_SW_CPU_CLOCK, "cpu-clock");
	traps_each_overflow(PERF_COUNT_SW_TASK_CLOCK, "task-clock");
}
