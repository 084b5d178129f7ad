#include "perfabi.h"

#include <limits.h>
#include <sys/ioctl.h>

/*
 * GRP-04. Cycles events are added to a hardware group until the PMU
 * refuses one: the kernel validates the group at open (x86 and arm64
 * validate_group() schedule it on a fake CPU context) and the open of the
 * member that can never fit fails with EINVAL (ENOSPC before 3.3). Only
 * what holds on every PMU is asserted: how many counters there are is
 * not (the loop finds out); where the CPU PMU driver validates groups
 * against counters (pa_pmu_groups_limited(): x86, arm, arm64, powerpc,
 * loongarch, mips) 64 cycles events can never fit, elsewhere the limit is
 * not known and the case SKIPs before opening anything. The group that
 * did open can still fail to go on when a counter is taken elsewhere
 * (the NMI watchdog: BUGS), so it is also read after a run: it went on
 * all or nothing (every member has the leader's time_enabled and
 * time_running), and when it ran every member counted. A group that never
 * went on although nothing else may hold a counter (kernel.nmi_watchdog 0
 * and no other process with a perf event, pa_perf_held_elsewhere()), run
 * twice, is a FAIL: it validated against the very counters it then never
 * got.
 */
#define MAX	64

PERFABI_CASE(
	.assertion = "adding hardware events to a group until it cannot fit the PMU: the open of the overflowing member fails with EINVAL (ENOSPC before Linux 3.3), and the members that opened run all or nothing (each reports the leader's time_enabled and time_running; if the group ran, every member counted)",
	.ref = "perf_event_open(2), ERRORS: \"Prior to Linux 3.3, if there was not enough room for the event, ENOSPC was returned. In Linux 3.3, this was changed to EINVAL\"; BUGS: \"Prior to Linux 2.6.33 (at least for x86), the kernel did not check if events could be scheduled together until read time. The same happens on all known kernels if the NMI watchdog is enabled\"",
	.covers = "arg.group_fd errno.EINVAL type.HARDWARE hw.CPU_CYCLES read_format.TOTAL_TIME_ENABLED read_format.TOTAL_TIME_RUNNING",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(a),
		.config = PERF_COUNT_HW_CPU_CYCLES, .disabled = 1,
		.exclude_kernel = 1, .exclude_hv = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int want = pa_since("3.3", "a group that cannot fit fails with EINVAL, not ENOSPC") ? EINVAL : ENOSPC;
	uint64_t lv[3], mv[3];
	int fd[MAX], n;

	if (!pa_pmu_groups_limited())
		pa_skip("how many hardware events fit in one group is not known here for this architecture's PMU");
	close(pa_hw_open_or_skip(a.type, a.config));	/* pins on hybrid x86 */
	fd[0] = ASSERT_OPEN(&a, 0, -1, -1, 0);
	a.disabled = 0;		/* members follow the leader */
	for (n = 1; n < MAX; n++) {
		fd[n] = pa_perf_open(&a, 0, -1, fd[0], 0);
		if (fd[n] < 0)
			break;
	}
	if (n == MAX) {
		pa_fail("%d cycles events opened in one group: more than any PMU of this architecture has counters", MAX);
		pa_abort();
	}
	pa_diag("%d cycles events fit in the group", n);
	EXPECT_OPEN_FAIL(&a, 0, -1, fd[0], 0, want);
#if defined(__arm__) || defined(__aarch64__)
	/* arm's validate_group() skips a leader that is off (validate_event():
	 * PERF_EVENT_STATE_OFF without enable_on_exec counts as fitting), so
	 * the group that validated holds one event more than the counters and
	 * can never go on: the last member goes, and the rest must run */
	close(fd[--n]);
	pa_diag("arm: the disabled leader was not counted at open; %d events run", n);
#endif

	/* a second run where the first never went on: a counter held for a
	 * moment elsewhere is let go by then */
	for (int run = 0; run < 2; run++) {
		ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
		pa_work_cpu_ms(5);
		ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
		pa_read_u64(fd[0], lv, 3);
		if (lv[2])
			break;
		pa_diag("run %d: the group never went on the PMU (enabled %llu ns, running 0)",
			run + 1, (unsigned long long)lv[1]);
	}
	EXPECT_GT(lv[1], 0);
	EXPECT_LE(lv[2], lv[1]);
	if (lv[2] == 0) {
		long wd = pa_sysctl_long("kernel/nmi_watchdog");
		char who[512];

		/* no such sysctl: no lockup detector, nothing holds a counter */
		if (wd == LONG_MIN && access("/proc/sys/kernel/nmi_watchdog", F_OK) && errno == ENOENT)
			wd = 0;
		if (wd != 0)
			pa_diag("kernel.nmi_watchdog is %s: the watchdog may hold a counter (BUGS), so the values are not valid",
				wd == LONG_MIN ? "unreadable" : "on");
		else if (pa_perf_held_elsewhere(who, sizeof(who)))
			pa_diag("others may hold counters (%s): the values are not valid", who);
		else
			pa_fail("a group of %d cycles events that validated never went on the PMU in two runs, with kernel.nmi_watchdog 0 and no other process holding a perf event",
				n);
	} else {
		EXPECT_GT(lv[0], 0);
	}
	for (int i = 1; i < n; i++) {
		pa_read_u64(fd[i], mv, 3);
		EXPECT_EQ(mv[1], lv[1]);
		EXPECT_EQ(mv[2], lv[2]);
		if (lv[2] > 0)
			EXPECT_GT(mv[0], 0);
		else
			EXPECT_EQ(mv[0], 0);
	}
	for (int i = 0; i < n; i++)
		close(fd[i]);
}
