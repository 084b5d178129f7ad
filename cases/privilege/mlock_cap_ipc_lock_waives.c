#include "perfabi.h"
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <linux/capability.h>

PERFABI_CASE(
	.assertion = "CAP_IPC_LOCK alone lifts the perf mlock budget: a user holding only CAP_IPC_LOCK maps a ring far beyond perf_event_mlock_kb and RLIMIT_MEMLOCK 0",
	.ref = "perf_event_open(2), perf_event_mlock_kb; kernel/events/core.c perf_mmap(): !capable(CAP_IPC_LOCK)",
	.alone = true,
	.covers = "cap.CAP_IPC_LOCK sysctl.perf_event_mlock_kb",
	.root = true,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_DUMMY);
	struct rlimit rl = { 0, 0 };
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	struct pa_ring r;
	int fd;

	ASSERT_OK(pa_sysctl_write("kernel/perf_event_mlock_kb", "16"));
	fd = ASSERT_OPEN(&attr, 0, -1, -1, 0);
	ASSERT_OK(setrlimit(RLIMIT_MEMLOCK, &rl));
	ASSERT_OK(prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0));
	pa_become_fresh_uid();
	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = 1u << PA_CAP_IPC_LOCK;
	ASSERT_OK(syscall(SYS_capset, &h, d));
	ASSERT_TRUE(pa_has_cap(PA_CAP_IPC_LOCK));
	ASSERT_FALSE(pa_has_cap(PA_CAP_SYS_ADMIN));
	EXPECT_EQ(pa_ring_try_map(&r, fd, 64), 0);
}
