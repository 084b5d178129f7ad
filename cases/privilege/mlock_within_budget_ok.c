#include "perfabi.h"
#include <sys/mman.h>

PERFABI_CASE(
	.assertion = "a ring within the per-user perf_event_mlock_kb budget (1 + 1 pages) maps for every identity",
	.ref = "perf_event_open(2), /proc/sys/kernel/perf_event_mlock_kb \"Maximum number of pages an unprivileged user can mlock\"",
	.covers = "sysctl.perf_event_mlock_kb",
	.privileged = true,
	.probe = pa_probe_priv,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	int want = pa_expected_errno(PA_NEED_SELF);
	struct pa_ring r;
	int fd;

	if (want) {
		EXPECT_OPEN_FAIL(&attr, 0, -1, -1, 0, want);
		return;
	}
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	EXPECT_EQ(pa_ring_try_map(&r, fd, 1), 0);
	close(fd);
}
