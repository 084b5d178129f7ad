#include "perfabi.h"

#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>

/*
 * 07091aade394: perf_mmap() called the PMU's event_mapped() callback even
 * when the mmap() failed. On x86 that callback counts the mappings of
 * rdpmc-capable events in mm->context.perf_rdpmc_allowed and sets CR4.PCE
 * (user-space RDPMC) while the count is not 0; no perf_mmap_close() ever
 * undoes a failed mmap(), so the count leaked and RDPMC stayed allowed
 * for the process after its last mapping was gone. Since the fix a failed
 * mmap() returns before the callback.
 *
 * So: RDPMC faults with no ring mapped; it works (the documented
 * cap_user_rdpmc use) while the ring is; an mmap() of another size fails
 * with EINVAL; after the munmap() of the only mapping RDPMC faults again.
 */
static sigjmp_buf jb;

static __attribute__((unused)) void on_segv(int sig)
{
	(void)sig;
	siglongjmp(jb, 1);
}

#ifdef __x86_64__
/*
 * The user-space RDPMC policy, sysfs rdpmc of the core PMU (cpu, or
 * cpu_core on hybrid x86; one x86_pmu.attr_rdpmc for both): 0 never, 1
 * while an rdpmc-capable event is mapped (the default), 2 always;
 * before 4.0, 1 was always (perf_event_open(2),
 * /sys/bus/event_source/devices/cpu/rdpmc; arch/x86/events/core.c
 * set_attr_rdpmc()). -1 when unreadable (the file is root's: 0600).
 */
static int rdpmc_policy(void)
{
	static const char *const f[] = {
		"/sys/bus/event_source/devices/cpu/rdpmc",
		"/sys/bus/event_source/devices/cpu_core/rdpmc",
	};
	char buf[16];

	for (unsigned i = 0; i < 2; i++)
		if (!pa_sysctl_read(f[i], buf, sizeof(buf)) && buf[0] >= '0' && buf[0] <= '2')
			return buf[0] - '0';
	return -1;
}

/* Does RDPMC of counter idx fault (SIGSEGV: #GP with CR4.PCE clear)? */
static bool rdpmc_faults(uint32_t idx)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;
	volatile bool faulted = false;
	uint32_t lo, hi;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(jb, 1) == 0)
		__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
	else
		faulted = true;
	sigaction(SIGSEGV, &old, NULL);
	return faulted;
}
#endif

PERFABI_CASE(
	.assertion = "a failed mmap() of a hardware event (EINVAL: another size than its mapped ring) does not allow user-space RDPMC: after the munmap() of the event's only mapping RDPMC of its counter faults again, as it did before the first mmap(); while mapped it works (cap_user_rdpmc)",
	.ref = "\"perf/core: Exit early on perf_mmap() fail\" 07091aade394 (6.17, CVE-2025-38565; stable 6.12.42, 6.1.148): kernel/events/core.c perf_mmap() returns before pmu->event_mapped() (arch/x86/events/core.c x86_pmu_event_mapped(): mm->context.perf_rdpmc_allowed, CR4.PCE) when the mapping failed",
	.covers = "mmap.size mmap.capabilities",
	.fix = { .commit = "07091aade394", .subject = "perf/core: Exit early on perf_mmap() fail", .release = "6.17", .cve = "CVE-2025-38565", .stable = "6.12.42 6.1.148" },
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
	.xfail = {
		.from = "4.0",	/* Fixes: 1e0fb9ec679c, the event_mapped() callback */
		.to = "6.17",
		.why = "perf_mmap() called event_mapped() on failure too: x86's perf_rdpmc_allowed leaked and CR4.PCE stayed set with no mapping left",
		.fix = "07091aade394",
		/* Debian's changelogs: ChangeLog-6.12.42, ChangeLog-6.1.148 */
		.fixed_in = "6.12.42 6.1.148",
	},
) {
#ifndef __x86_64__
	pa_skip("RDPMC and its CR4.PCE gate are x86's; other architectures' event_mapped() differ");
#else
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	long psz = sysconf(_SC_PAGESIZE);
	int policy = rdpmc_policy();
	struct pa_ring r;
	uint32_t index;
	int fd;

	/* the policy decides what can be seen here; the behaviour does not */
	if (policy == 0)
		pa_skip("user-space RDPMC is off here (rdpmc sysfs 0): no mapping allows it");
	if (policy == 2)
		pa_skip("user-space RDPMC is always allowed here (rdpmc sysfs 2): a mapping changes nothing");
	if (policy == 1 && !pa_kernel_at_least("4.0"))
		pa_skip("user-space RDPMC is always allowed here (rdpmc sysfs 1 before Linux 4.0): a mapping changes nothing");
	/* no event of this process is mapped yet */
	if (!rdpmc_faults(0)) {
		if (policy < 0)
			pa_skip("RDPMC works with no event mapped, and the rdpmc sysfs policy is not readable here (2 would explain it)");
		pa_fail("RDPMC works with no event mapped while rdpmc sysfs is 1 (only while mapped): CR4.PCE is set for a process that never mapped an event");
		pa_abort();
	}
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	pa_ring_map(&r, fd, 1);
	if (!r.page->cap_user_rdpmc) {
		if (policy < 0)
			pa_skip("cap_user_rdpmc is 0, and the rdpmc sysfs policy is not readable here (0 would explain it)");
		pa_fail("cap_user_rdpmc is 0 for a mapped, self-monitoring hardware event while rdpmc sysfs is 1");
		pa_abort();
	}
	pa_work_cpu_ms(5);
	index = r.page->index;	/* self-monitoring and running: scheduled */
	ASSERT_NE(index, 0);
	pa_diag("counter index %u", index - 1);
	EXPECT_FALSE(rdpmc_faults(index - 1));	/* mapped: allowed */

	EXPECT_ERRNO(mmap(NULL, (size_t)psz * 3, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
		     EINVAL);
	EXPECT_FALSE(rdpmc_faults(index - 1));	/* still mapped once */
	pa_ring_unmap(&r);
	/* no mapping left: the failed mmap() must not have kept RDPMC on */
	EXPECT_TRUE(rdpmc_faults(index - 1));
	close(fd);
#endif
}
