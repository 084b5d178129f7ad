#include "perfabi.h"
#include <sys/mman.h>
#include <sys/resource.h>

PERFABI_CASE(
	.assertion = "mmap of a ring larger than the per-user perf_event_mlock_kb budget (with RLIMIT_MEMLOCK 0) fails with EPERM unless paranoid is -1 or the caller has CAP_IPC_LOCK; CAP_PERFMON and CAP_SYS_ADMIN do not waive it",
	.ref = "perf_event_open(2), /proc/sys/kernel/perf_event_mlock_kb; kernel/events/core.c perf_mmap(): locked > lock_limit && perf_is_paranoid() && !capable(CAP_IPC_LOCK) -> -EPERM",
	.covers = "sysctl.perf_event_mlock_kb cap.CAP_IPC_LOCK errno.EPERM",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct rlimit rl = { 0, 0 };
	long kb = pa_sysctl_long("kernel/perf_event_mlock_kb");
	long budget, page = sysconf(_SC_PAGESIZE);
	unsigned pages = 1;
	int want = pa_expected_errno(PA_NEED_SELF);
	struct pa_ring r;
	int fd, err;

	if (want) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
		return;
	}
	ASSERT_GT(kb, 0);
	budget = (kb / (page / 1024)) * pa_online_cpus();
	while ((long)pages + 1 <= budget)
		pages *= 2;
	if (pages > 65536)
		pa_skip("the budget (%ld pages) is too large to exceed with a sane ring", budget);
	ASSERT_OK(setrlimit(RLIMIT_MEMLOCK, &rl));
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	err = pa_ring_try_map(&r, fd, pages);
	pa_diag("budget %ld pages, asked 1+%u", budget, pages);
	EXPECT_EQ(-err, pa_expected_errno(PA_NEED_MLOCK_OVER_LIMIT));
	if (!err)
		pa_ring_unmap(&r);
	close(fd);
}
