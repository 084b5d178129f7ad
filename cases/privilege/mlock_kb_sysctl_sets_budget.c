#include "perfabi.h"
#include <sys/resource.h>

PERFABI_CASE(
	.assertion = "perf_event_mlock_kb sets the per-user budget: with it at 16 kB per CPU and RLIMIT_MEMLOCK 0, a fresh user without CAP_IPC_LOCK maps 1+2 pages but not more than (16 kB / page) x CPUs pages (EPERM), unless paranoid is -1",
	.ref = "perf_event_open(2), /proc/sys/kernel/perf_event_mlock_kb; kernel/events/core.c perf_mmap() user_lock_limit *= num_online_cpus()",
	.alone = true,
	.covers = "sysctl.perf_event_mlock_kb errno.EPERM",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct rlimit rl = { 0, 0 };
	long page = sysconf(_SC_PAGESIZE);
	long budget = (16 / (page / 1024)) * pa_online_cpus();
	unsigned pages = 2;
	struct pa_ring r;
	int fd1, fd2, err;

	if (page > 16384)
		pa_skip("page size %ld is larger than the budget this case sets", page);
	ASSERT_OK(pa_sysctl_write("kernel/perf_event_mlock_kb", "16"));
	while ((long)pages + 1 <= budget)
		pages *= 2;
	fd1 = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	fd2 = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(setrlimit(RLIMIT_MEMLOCK, &rl));
	pa_become_fresh_uid();	/* a user_struct with nothing locked yet */
	EXPECT_EQ(pa_ring_try_map(&r, fd1, 2), 0);
	err = pa_ring_try_map(&r, fd2, pages);
	pa_diag("budget %ld pages beside 3 in use, asked 1+%u", budget, pages);
	EXPECT_EQ(-err, pa_paranoid() == -1 ? 0 : EPERM);
}
