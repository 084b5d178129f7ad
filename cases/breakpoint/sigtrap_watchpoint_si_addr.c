#include "perfabi.h"

#include <signal.h>

/*
 * A write watchpoint with sigtrap (and remove_on_exec, which sigtrap
 * requires) and sample_period 1 sends this thread a SIGTRAP on every write:
 * si_code TRAP_PERF, si_addr the watchpoint's bp_addr (the sample's ADDR)
 * and si_perf_data attr.sig_data. Each write's signal is waited for before
 * the next write, so two never coalesce.
 *
 * The handler disables the event before it returns, and the next write
 * enables it again. An arm64 watchpoint fires before the store, and the
 * kernel steps over the store (one single step) only with the overflow
 * handler it expects. Here the step is taken by the first instruction of
 * the SIGTRAP handler (arch/arm64/kernel/signal.c handle_signal(): "Step
 * into the signal handler if we are stepping"). A handler that returns to
 * the store with the event still enabled then traps again, forever. x86's
 * trap comes after the store; disabling in the handler changes nothing
 * there.
 */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

#define N_WRITES 4
#define SIG_DATA 0xb9ea4c0ffee1ULL

static volatile uint64_t target __attribute__((aligned(8)));
static volatile sig_atomic_t hits;
static volatile int last_code;
static void *volatile last_addr;
static volatile uint64_t last_data;
static int trap_fd = -1;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	unsigned long data;

	(void)sig;
	(void)uc;
	hits++;
	last_code = si->si_code;
	last_addr = si->si_addr;
	/* glibc may have no si_perf_data: the kernel's _sigfault._perf._data
	 * is the unsigned long right after si_addr */
	memcpy(&data, (char *)&si->si_addr + sizeof(void *), sizeof(data));
	last_data = data;
	ioctl(trap_fd, PERF_EVENT_IOC_DISABLE, 0);	/* see above */
}

__attribute__((noinline)) static void write_once(uint64_t v)
{
	target = v;
}

PERFABI_CASE(
	.assertion = "a sampling write watchpoint with sigtrap sends SIGTRAP on each write with si_code TRAP_PERF, si_addr = bp_addr and si_perf_data = attr.sig_data",
	.ref = "include/uapi/linux/perf_event.h sigtrap \"send synchronous SIGTRAP on event\", sig_data (5.13); kernel/events/core.c __perf_event_overflow(): pending_addr = data->addr (bp_addr, perf_bp_event()), perf_sigtrap()",
	.covers = "type.BREAKPOINT attr.sigtrap attr.sig_data attr.bp_addr",
	.min_kernel = "5.13",
	.pmu = "breakpoint",
	.probe = pa_probe_self_perf,
	.features = "bp-trap",
) {
	struct perf_event_attr a = pa_bp_attr(HW_BREAKPOINT_W, (const void *)&target, HW_BREAKPOINT_LEN_8);
	struct sigaction sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ASSERT_OK(sigaction(SIGTRAP, &sa, NULL));

	a.sample_period = 1;
	a.sigtrap = 1;
	a.remove_on_exec = 1;
	a.sig_data = SIG_DATA;
	fd = ASSERT_OPEN(&a, 0, -1, -1, 0);
	trap_fd = fd;
	for (int i = 0; i < N_WRITES; i++) {
		last_code = 0;
		last_addr = NULL;
		last_data = 0;
		ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		write_once((uint64_t)i);
		/* sent from irq/task work on the way back to user space */
		for (int w = 0; w < 100 && hits < i + 1; w++)
			usleep(10000);
		ASSERT_EQ(hits, i + 1);
		EXPECT_EQ(last_code, TRAP_PERF);
		EXPECT_EQ((uint64_t)(uintptr_t)last_addr, (uint64_t)(uintptr_t)&target);
		EXPECT_EQ(last_data, SIG_DATA);
	}
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(pa_read_one(fd), N_WRITES);
	close(fd);
}
