#include "perfabi.h"

#include <signal.h>
#include <sys/ioctl.h>

/*
 * sigtrap (with remove_on_exec, which it requires) sends SIGTRAP to the
 * task on each overflow, si_code TRAP_PERF, and copies attr.sig_data into
 * siginfo.si_perf_data. A page-fault software event with period 1 overflows
 * on the first fault this thread takes after enabling it; the case makes
 * one by touching a fresh page.
 */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

#define SIG_DATA 0x5eed0f5eed0fULL

static volatile sig_atomic_t hits;
static volatile int last_code;
static volatile uint64_t last_data;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	unsigned long data;

	(void)uc;
	hits++;
	last_code = si->si_code;
	/* glibc 2.36 has no si_perf_data: the kernel's _sigfault._perf._data
	 * is the unsigned long right after si_addr */
	memcpy((void *)&data, (char *)&si->si_addr + sizeof(void *), sizeof(data));
	last_data = data;
}

PERFABI_CASE(
	.assertion = "with sigtrap, an overflow sends SIGTRAP with si_code TRAP_PERF and attr.sig_data in si_perf_data",
	.ref = "include/uapi/linux/perf_event.h sig_data: \"User provided data if sigtrap=1, passed back to user via siginfo_t::si_perf_data\" (5.13, VER7); kernel/events/core.c perf_sigtrap()",
	.covers = "attr.sig_data attr.sigtrap attr.remove_on_exec size.VER7",
	.min_kernel = "5.13",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	struct sigaction sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ASSERT_OK(sigaction(SIGTRAP, &sa, NULL));

	attr.disabled = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = SIG_DATA;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);

	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	/* the signal is sent from task work on the way back to user space */
	for (int i = 0; i < 100 && !hits; i++)
		usleep(10000);
	close(fd);

	ASSERT_GE(hits, 1);
	EXPECT_EQ(last_code, TRAP_PERF);
	EXPECT_EQ(last_data, SIG_DATA);
}
