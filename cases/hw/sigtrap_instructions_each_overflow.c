#include "perfabi.h"

#include <signal.h>
#include <sys/ioctl.h>

/*
 * sigtrap on a hardware event: PERF_COUNT_HW_INSTRUCTIONS in user space,
 * sample_period P, sigtrap (with remove_on_exec, which it requires) and
 * sig_data. Each overflow (PMI, an NMI on x86) runs __perf_event_overflow():
 * one sample, and (pending_work clear) task_work_add(current,
 * &event->pending_task, TWA_NMI_CURRENT in NMI), whose perf_pending_task()
 * -> perf_sigtrap() sends SIGTRAP on the way back to user space, before the
 * next user instruction: si_code TRAP_PERF, si_addr pending_addr (0: the
 * sample has no PERF_SAMPLE_ADDR), si_perf_data attr.sig_data,
 * si_perf_type event->orig_type (PERF_TYPE_HARDWARE). The next overflow is
 * P = 20M user instructions later, so none finds pending_work still set:
 * SIGTRAPs == samples, exactly. (6.1-6.9 sent it from perf_pending_irq()
 * instead: the same before the next user instruction.)
 *
 * The number of overflows is a bound: samples <= floor(count / P) and >=
 * floor(count / P) - 1 (only an overflow in the last few hundred
 * instructions before the DISABLE can lose its PMI); the loop alone is
 * 210M instructions, so >= 9. P keeps overflows under 1000 a second on any
 * CPU (pa_loop3() runs at most one iteration, 3 instructions, a cycle): a
 * throttle is only possible where perf_event_max_sample_rate has fallen to
 * 2000 or less (pa_throttled_in_burst(2)). A multiplexed counter SKIPs.
 *
 * Before ca6c21327c6a a sigtrap event had event_limit forced to 1: every
 * overflow returned 1, on which the PMI handler stopped the counter
 * (x86_pmu_stop(event, 0)), and the re-arm in perf_pending_event_disable()
 * restored event_limit but not the counter: after the first SIGTRAP the
 * event counted nothing until its task was next scheduled in.
 */
#define P		20000000ULL	/* sample_period, a multiple of 64 */
#define LOOP		70000000ULL	/* pa_loop3() iterations: 210M instructions */
#define SIG_DATA	0x4877a1c0ffeeULL
#define MAX_TRAPS	64

static volatile sig_atomic_t hits;
static volatile int codes[MAX_TRAPS];
static void *volatile addrs[MAX_TRAPS];
static volatile uint64_t datas[MAX_TRAPS];
static volatile uint32_t types[MAX_TRAPS];

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	unsigned long data;
	uint32_t type;
	int n = hits;

	(void)sig;
	(void)uc;
	if (n < MAX_TRAPS) {
		codes[n] = si->si_code;
		addrs[n] = si->si_addr;
		/* glibc may have no si_perf_data/si_perf_type: the kernel's
		 * _sigfault._perf is {unsigned long _data; u32 _type; u32
		 * _flags} right after si_addr */
		memcpy(&data, (char *)&si->si_addr + sizeof(void *), sizeof(data));
		memcpy(&type, (char *)&si->si_addr + sizeof(void *) + sizeof(unsigned long), sizeof(type));
		datas[n] = data;
		types[n] = type;
	}
	hits = n + 1;
}

PERFABI_CASE(
	.assertion = "a sampling PERF_COUNT_HW_INSTRUCTIONS event (period 20M) with sigtrap sends one SIGTRAP per overflow: SIGTRAPs == "
		     "samples (floor(count / period) or one less, >= 9 over a 210M-instruction loop), each with si_code TRAP_PERF, si_addr 0, "
		     "si_perf_data = attr.sig_data and si_perf_type PERF_TYPE_HARDWARE",
	.ref = "perf_event_open(2), sigtrap (since Linux 5.13): \"This enables synchronous signal delivery of SIGTRAP on event overflow\"; "
	       "sig_data: \"This data will be copied to user's signal handler (through si_perf in the siginfo_t)\"; include/uapi/linux/perf_event.h "
	       "sig_data \"passed back to user via siginfo_t::si_perf_data\"; kernel/events/core.c __perf_event_overflow() (pending_work, task_work_add()), "
	       "perf_pending_task(), perf_sigtrap() (orig_type, sig_data); arch/x86/events/core.c x86_pmu_handle_irq()",
	.covers = "attr.sigtrap attr.sig_data attr.remove_on_exec type.HARDWARE hw.INSTRUCTIONS",
	.min_kernel = "5.13",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
	.xfail = {
		.from = "5.13",	/* 97ba62b27867, the sigtrap attribute */
		.to = "6.1",
		.why = "sigtrap forced event_limit to 1: each overflow returned 1, the PMI handler stopped the counter (x86_pmu_stop(event, 0)) and "
		       "only event_limit was re-armed, so after the first SIGTRAP nothing was counted until the next sched-in",
		.fix = "ca6c21327c6a",
		.fixed_in = "6.0.7 5.15.77",
	},
) {
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	int fd, samples = 0, throttled = 0, n;
	struct sigaction sa;
	struct pa_ring r;
	uint64_t c;

	pa_loop3(1);	/* SKIP here where there is no such loop */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ASSERT_OK(sigaction(SIGTRAP, &sa, NULL));

	a.type = PERF_TYPE_HARDWARE;
	a.sample_period = P;
	a.sample_type = PERF_SAMPLE_IP;
	a.read_format = PA_HW_GROUP_FMT;
	a.disabled = 1;
	a.sigtrap = 1;
	a.remove_on_exec = 1;
	a.sig_data = SIG_DATA;
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(LOOP);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(fd, &c, 1, true);
	while (pa_hw_next_sample(&r, &a, NULL, &throttled))
		samples++;
	/* each SIGTRAP is taken before the next user instruction; a late
	 * one would be a failure, not a reason to wait */
	usleep(10000);
	n = hits;
	pa_diag("count %llu (%llu periods), %d samples, %d SIGTRAPs, %d throttle records", (unsigned long long)c,
		(unsigned long long)(c / P), samples, n, throttled);
	if (throttled)
		pa_throttled_in_burst(2);

	EXPECT_LE((uint64_t)samples, c / P);
	EXPECT_GE((uint64_t)samples + 1, c / P);
	EXPECT_GE((uint64_t)samples, 3 * LOOP / P - 1);
	EXPECT_EQ(n, samples);
	for (int i = 0; i < n && i < MAX_TRAPS; i++) {
		EXPECT_EQ(codes[i], TRAP_PERF);
		EXPECT_EQ((uint64_t)(uintptr_t)addrs[i], 0);
		EXPECT_EQ(datas[i], SIG_DATA);
		EXPECT_EQ(types[i], PERF_TYPE_HARDWARE);
	}
	pa_ring_unmap(&r);
	close(fd);
}
