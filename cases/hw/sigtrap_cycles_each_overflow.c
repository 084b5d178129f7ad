#include "perfabi.h"

#include <signal.h>
#include <sys/ioctl.h>

/*
 * sigtrap on the cycle counter, counted exactly. A user-only
 * PERF_COUNT_HW_CPU_CYCLES sampler, period P, sigtrap with remove_on_exec
 * (which it requires) and sig_data. Each overflow
 * (armv8pmu_handle_irq() -> __perf_event_overflow()) writes one sample and
 * (pending_work clear) adds perf_pending_task() as task work, which sends
 * SIGTRAP through perf_sigtrap() on the way back to user space: si_code
 * TRAP_PERF, si_addr 0 (no PERF_SAMPLE_ADDR), si_perf_data attr.sig_data,
 * si_perf_type PERF_TYPE_HARDWARE (event->orig_type). (6.1-6.9 sent it
 * from perf_pending_irq() instead, before the next user instruction too.)
 *
 * Under QEMU -icount shift=0 (PERFABI_PMU_EXACT) 8.5 periods cross exactly
 * 8 overflows (hw/sample_period_cycles_exact_samples gives the rule). The
 * handler runs in user space and is counted too: a few tens of
 * instructions per overflow, far below the half period of margin, so the
 * count still holds 8 periods: exactly 8 SIGTRAPs and 8 samples.
 */
#define P		1200000ULL
#define M		8
#define SIG_DATA	0x5a17c0deULL
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
		/* the kernel's _sigfault._perf {unsigned long _data; u32
		 * _type; u32 _flags} follows si_addr (glibc may not name it) */
		memcpy(&data, (char *)&si->si_addr + sizeof(void *), sizeof(data));
		memcpy(&type, (char *)&si->si_addr + sizeof(void *) + sizeof(unsigned long), sizeof(type));
		datas[n] = data;
		types[n] = type;
	}
	hits = n + 1;
}

PERFABI_CASE(
	.assertion = "a user-only PERF_COUNT_HW_CPU_CYCLES sampler (period 1.2M) with sigtrap sends exactly one SIGTRAP per overflow: 8 "
		     "SIGTRAPs and 8 samples over 8.5 periods, each SIGTRAP with si_code TRAP_PERF, si_addr 0, si_perf_data = attr.sig_data "
		     "and si_perf_type PERF_TYPE_HARDWARE (exact PMU)",
	.ref = "perf_event_open(2), sigtrap (since Linux 5.13): \"This enables synchronous signal delivery of SIGTRAP on event "
	       "overflow\"; sig_data; include/uapi/linux/perf_event.h sig_data \"passed back to user via siginfo_t::si_perf_data\"; "
	       "kernel/events/core.c __perf_event_overflow() (pending_work), perf_sigtrap(); drivers/perf/arm_pmuv3.c armv8pmu_handle_irq()",
	.covers = "attr.sigtrap attr.sig_data attr.remove_on_exec type.HARDWARE hw.CPU_CYCLES",
	.min_kernel = "6.1",	/* ca6c21327c6a: before it a sigtrap event stopped counting after its first overflow */
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.timeout = 60,
) {
	struct perf_event_attr a;
	int fd, samples = 0, throttled = 0, n;
	struct sigaction sa;
	struct pa_ring r;
	uint64_t c;

	pa_hws_need();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ASSERT_OK(sigaction(SIGTRAP, &sa, NULL));

	a = pa_hws_attr(P, PERF_SAMPLE_IP);
	a.sigtrap = 1;
	a.remove_on_exec = 1;
	a.sig_data = SIG_DATA;
	fd = pa_hw_open_sampler(&a);
	pa_ring_map(&r, fd, 1);
	pa_ring_prefault(&r);

	pa_hws_run_halves(fd, P, 2 * M + 1);
	c = pa_hws_count(fd);
	while (pa_hw_next_sample(&r, &a, NULL, &throttled))
		samples++;
	n = hits;	/* each was taken before the next user instruction */
	if (throttled)
		pa_throttled_in_burst(PA_HWS_BURST(P));
	pa_hws_expect_overflows("SIGTRAPs", (uint64_t)n, c, P, M);
	EXPECT_EQ(samples, M);
	for (int i = 0; i < n && i < MAX_TRAPS; i++) {
		EXPECT_EQ(codes[i], TRAP_PERF);
		EXPECT_EQ((uint64_t)(uintptr_t)addrs[i], 0);
		EXPECT_EQ(datas[i], SIG_DATA);
		EXPECT_EQ(types[i], PERF_TYPE_HARDWARE);
	}
	pa_ring_unmap(&r);
	close(fd);
}
