#include "perfabi.h"

#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/*
 * ca6c21327c6a: a sigtrap event used to deliver its SIGTRAP through the
 * event_limit / pending_disable machinery (event_limit forced to 1, each
 * "disable" turned into a SIGTRAP and a re-arm). PERF_EVENT_IOC_REFRESH n
 * then raised event_limit to 1 + n: the first n overflows sent no SIGTRAP
 * at all, and the event was never disabled. Since the fix the SIGTRAP has
 * its own pending_sigtrap/pending_work and event_limit works as for any
 * other event.
 *
 * A page-fault event, period 1, sigtrap, armed with REFRESH 3; we write
 * 6 fresh pages one by one. Each overflow's SIGTRAP is sent (task_work or
 * irq_work) before the faulting write returns to user space, so after
 * write i exactly min(i + 1, 3) SIGTRAPs have been taken; each has
 * si_code TRAP_PERF, si_addr = the page written (the fault address,
 * PERF_SAMPLE_ADDR of a page-fault sample) and si_perf_data =
 * attr.sig_data; the 3rd overflow disables the event, so its count stays 3.
 */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif
#define SIG_DATA	0xca6c21327c6aULL
#define REFRESH		3
#define PAGES		6
#define MAX_TRAPS	16

static volatile sig_atomic_t hits;
static volatile int codes[MAX_TRAPS];
static void *volatile addrs[MAX_TRAPS];
static volatile uint64_t datas[MAX_TRAPS];

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	unsigned long data;
	int n = hits;

	(void)sig;
	(void)uc;
	if (n < MAX_TRAPS) {
		codes[n] = si->si_code;
		addrs[n] = si->si_addr;
		/* glibc 2.36 has no si_perf_data: it is the unsigned long
		 * right after si_addr (_sigfault._perf._data) */
		memcpy(&data, (char *)&si->si_addr + sizeof(void *), sizeof(data));
		datas[n] = data;
	}
	hits = n + 1;
}

PERFABI_CASE(
	.assertion = "a sigtrap event armed with PERF_EVENT_IOC_REFRESH 3 sends a SIGTRAP on each of its first 3 overflows (si_code TRAP_PERF, si_addr the fault address, si_perf_data attr.sig_data) and is then disabled: 6 faults give exactly 3 SIGTRAPs and a count of 3",
	.ref = "\"perf: Fix missing SIGTRAPs\" ca6c21327c6a (6.1; stable 6.0.7, 5.15.77): kernel/events/core.c __perf_event_overflow() pending_sigtrap no longer rides on event_limit/pending_disable; perf_event_open(2) PERF_EVENT_IOC_REFRESH",
	.covers = "attr.sigtrap attr.sig_data attr.remove_on_exec ioctl.REFRESH sw.PAGE_FAULTS",
	.fix = { .commit = "ca6c21327c6a", .subject = "perf: Fix missing SIGTRAPs", .release = "6.1", .stable = "6.0.7 5.15.77" },
	.min_kernel = "5.13",	/* attr.sigtrap */
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "5.13",	/* 97ba62b27867, the sigtrap attribute */
		.to = "6.1",
		.why = "SIGTRAP went through event_limit (forced to 1) and pending_disable: REFRESH n left 1 + n, so the first n overflows sent no SIGTRAP and the event was re-armed instead of disabled",
		.fix = "ca6c21327c6a",
		/* 5.15.77: the stable push naming ca7b0a10287e; 6.0.7: the
		 * same backport (Debian's changelogs start after both) */
		.fixed_in = "6.0.7 5.15.77",
	},
) {
	struct perf_event_attr attr = pa_sw_sampling_attr(PERF_COUNT_SW_PAGE_FAULTS, 1);
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)PAGES * (size_t)psz;
	struct sigaction sa;
	volatile char *p;
	int fd, n;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	ASSERT_OK(sigaction(SIGTRAP, &sa, NULL));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(p != MAP_FAILED);
	madvise((void *)p, len, MADV_NOHUGEPAGE);	/* one fault per page */

	/* run the handler once now, so taking a SIGTRAP faults nothing later */
	ASSERT_OK(raise(SIGTRAP));
	ASSERT_EQ(hits, 1);
	hits = 0;

	attr.disabled = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;	/* required with sigtrap */
	attr.sig_data = SIG_DATA;
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_REFRESH, REFRESH));	/* enables */
	for (int i = 0; i < PAGES; i++) {
		p[(size_t)i * (size_t)psz] = 1;
		n = hits;
		if (n != (i < REFRESH ? i + 1 : REFRESH))
			pa_fail("after the write to page %d: %d SIGTRAPs, want %d",
				i, n, i < REFRESH ? i + 1 : REFRESH);
	}
	/* the disable is synchronous with the 3rd overflow; bound any lag */
	for (int i = 0; i < 100 && hits < REFRESH; i++)
		usleep(10000);
	n = hits;
	pa_diag("%d SIGTRAPs for %d faults", n, PAGES);
	EXPECT_EQ(n, REFRESH);
	EXPECT_EQ(pa_read_one(fd), REFRESH);
	for (int i = 0; i < n && i < MAX_TRAPS; i++) {
		EXPECT_EQ(codes[i], TRAP_PERF);
		EXPECT_EQ((uintptr_t)addrs[i], (uintptr_t)(p + (size_t)i * (size_t)psz));
		EXPECT_EQ(datas[i], SIG_DATA);
	}
	close(fd);
	munmap((void *)p, len);
}
