#include "perfabi.h"

#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

/*
 * f91072ed1b72: two events that map one ring (b redirected into a's ring
 * with PERF_EVENT_IOC_SET_OUTPUT, then each mapped) are unmapped at the
 * same time. perf_mmap_close() decremented rb->mmap_count and read it
 * again later, so both closers could see 0 and both ran the "last
 * mapping" path: the pinned pages were subtracted twice and the ring's
 * user_struct reference dropped twice (free_uid: use-after-free). Since
 * the fix one atomic_dec_and_test() picks exactly one closer.
 *
 * The two mappings are in two processes (a fork()ed child maps b), so
 * their munmap()s never wait on one mm lock. With perf_event_mlock_kb 0
 * every ring page is charged to the pinned_vm of the mm that mapped the
 * ring first (the parent), and taken back from the mm of the last
 * munmap: so the parent's and the child's VmPin changes add up to exactly
 * 0 per round, whichever was last (when the child was, the parent keeps
 * the charge: its start value for the next round). The double undo
 * leaves them a ring short.
 *
 * From 6.18 (448f97fba901) mapping a redirected event warns (a refcount
 * addition on 0), and since d06bf78e55d5 (6.19, 6.18.8) it fails with
 * EBUSY: two events can no longer map one ring, the race is gone.
 */
#define MAX_ROUNDS	20000
#define BUDGET_NS	3000000000ull
#define WAIT_NS		2000000000ull

struct shared {
	int ready, go, done, map_err;
	unsigned delay;			/* spins the child waits after go */
	unsigned long long before, after;	/* the child's VmPin, kB */
};

static bool wait_for(int *p, int v)
{
	uint64_t t0 = pa_clock_ns(CLOCK_MONOTONIC);
	unsigned spins = 0;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) != v) {
		if (++spins % 64 == 0) {
			sched_yield();
			if (pa_clock_ns(CLOCK_MONOTONIC) - t0 > WAIT_NS)
				return false;
		}
	}
	return true;
}

static void spin(unsigned n)
{
	for (volatile unsigned i = 0; i < n; i++)
		;
}

static void child(struct shared *sh, int b, size_t len)
{
	void *m;

	sh->before = pa_vm_pin_kb();
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, b, 0);
	if (m == MAP_FAILED) {
		sh->map_err = errno;
		__atomic_store_n(&sh->ready, 1, __ATOMIC_RELEASE);
		_exit(0);
	}
	__atomic_store_n(&sh->ready, 1, __ATOMIC_RELEASE);
	if (!wait_for(&sh->go, 1))
		_exit(1);
	spin(sh->delay);
	munmap(m, len);
	sh->after = pa_vm_pin_kb();
	__atomic_store_n(&sh->done, 1, __ATOMIC_RELEASE);
	_exit(0);
}

PERFABI_CASE(
	.assertion = "two events sharing one ring (SET_OUTPUT, each mapped, in two processes) unmapped at the same time undo the ring's pinned-page charge exactly once: with perf_event_mlock_kb 0 the two processes' VmPin changes add up to 0 in every round; checked over many rounds",
	.ref = "\"perf/core: Fix race in the perf_mmap_close() function\" f91072ed1b72 (5.10, CVE-2020-14351; stable 5.9.2, 4.14.207, 4.9.244, 4.4.244): kernel/events/core.c perf_mmap_close() takes the detach-and-unaccount path only when atomic_dec_and_test(&rb->mmap_count) is true",
	.alone = true,
	.covers = "ioctl.SET_OUTPUT mmap.size sysctl.perf_event_mlock_kb",
	.fix = { .commit = "f91072ed1b72", .subject = "perf/core: Fix race in the perf_mmap_close() function", .release = "5.10", .cve = "CVE-2020-14351", .stable = "5.9.2 4.14.207 4.9.244 4.4.244" },
	.root = true,		/* perf_event_mlock_kb */
	.min_cpus = 2,
	/* 6.18 warns mapping a redirected event, 6.18.8/6.19 refuse it (EBUSY) */
	.max_kernel = "6.18",
	.destructive = true,	/* a double free_uid() */
	.xfail = {
		.from = "3.10",	/* Fixes: 9bb5d40cd93c */
		.to = "5.10",
		.why = "perf_mmap_close() read rb->mmap_count apart from its decrement: both concurrent last munmap()s unaccounted the ring and dropped its user_struct",
		.fix = "f91072ed1b72",
		/* Debian's changelogs: ChangeLog-5.9.2; the others from the stable queue mails */
		.fixed_in = "5.9.2 4.14.207 4.9.244 4.4.244",
	},
	.timeout = 20,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	long psz = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)psz * 3;
	unsigned long long base, ring_kb = (unsigned long long)len / 1024;
	unsigned long long left = 0;	/* kB the parent keeps when the child was last */
	uint64_t t0 = pa_clock_ns(CLOCK_MONOTONIC);
	unsigned rounds = 0, child_last = 0;
	long bias = 0;		/* spins the parent waits (< 0: the child) */
	struct shared *sh;

	base = pa_vm_pin_kb();
	if (base == ~0ull)
		pa_skip("/proc/self/status has no VmPin line");
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(sh != MAP_FAILED);
	ASSERT_OK(pa_sysctl_write("kernel/perf_event_mlock_kb", "0"));

	while (rounds < MAX_ROUNDS && pa_clock_ns(CLOCK_MONOTONIC) - t0 < BUDGET_NS) {
		int a = pa_perf_open(&attr, 0, -1, -1, 0);
		int b = pa_perf_open(&attr, 0, -1, -1, 0);
		unsigned long long sum;
		/* around the balance point, jittered by up to a step: see below */
		long step = 64 + labs(bias) / 4;
		long d = bias + ((long)((rounds * 37u) % 512u) - 256) * step / 256;
		void *m;
		pid_t pid;
		int st;

		if (a < 0 || b < 0) {
			pa_fail("round %u: open failed: %s", rounds, pa_errno_name(errno));
			break;
		}
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, a, 0);
		if (m == MAP_FAILED) {
			pa_fail("round %u: mmap of a: %s", rounds, pa_errno_name(errno));
			break;
		}
		if (ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a)) {
			pa_fail("round %u: SET_OUTPUT: %s", rounds, pa_errno_name(errno));
			break;
		}
		if (pa_vm_pin_kb() != base + left + ring_kb) {
			pa_fail("round %u: VmPin %llu kB with a's ring mapped, not %llu",
				rounds, pa_vm_pin_kb(), base + left + ring_kb);
			break;
		}
		memset(sh, 0, sizeof(*sh));
		sh->delay = d < 0 ? (unsigned)-d : 0;	/* the child waits */
		fflush(NULL);
		pid = fork();
		if (pid < 0) {
			pa_fail("fork: %s", pa_errno_name(errno));
			break;
		}
		if (pid == 0)
			child(sh, b, len);
		rounds++;
		if (!wait_for(&sh->ready, 1) || sh->map_err) {
			if (sh->map_err)
				pa_fail("round %u: the child's mmap of b: %s", rounds,
					pa_errno_name(sh->map_err));
			else
				pa_fail("round %u: the child did not map b in time", rounds);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			break;
		}
		__atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
		spin(d > 0 ? (unsigned)d : 0);		/* the parent waits */
		munmap(m, len);
		if (!wait_for(&sh->done, 1)) {
			pa_fail("round %u: the child's munmap did not finish in time", rounds);
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			break;
		}
		waitpid(pid, &st, 0);
		/* steer to where either side is last about half the time:
		 * there the two munmap()s overlap */
		if (sh->after != sh->before) {
			child_last++;
			bias += step;
		} else {
			bias -= step;
		}
		sum = pa_vm_pin_kb() + (sh->after - sh->before);
		if (sum != base + left) {
			pa_fail("round %u: VmPin changes add up to %lld kB, not 0 (parent %llu kB from %llu, child %llu kB from %llu): the ring was unaccounted twice",
				rounds, (long long)(sum - base - left), pa_vm_pin_kb(),
				base + left, sh->after, sh->before);
			break;
		}
		left = pa_vm_pin_kb() - base;
		close(b);
		close(a);
	}
	pa_diag("%u rounds in %llu ms; the child's munmap was the last %u times (final bias %ld spins)",
		rounds, (unsigned long long)((pa_clock_ns(CLOCK_MONOTONIC) - t0) / 1000000),
		child_last, bias);
	EXPECT_GT(rounds, 0);
}
