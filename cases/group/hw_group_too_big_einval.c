#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * GRP-04. Cycles events are added to a hardware group until the PMU
 * refuses one: the kernel validates the group at open (x86 and arm64
 * validate_group() schedule it on a fake CPU context) and the open of the
 * member that can never fit fails with EINVAL (ENOSPC before 3.3). Only
 * what holds on every PMU is asserted: how many counters there are is
 * not (the loop finds out); on x86 and arm64 64 cycles events can never
 * fit, elsewhere a PMU that accepts them all is a SKIP. The group that
 * did open can still fail to go on when a counter is taken elsewhere
 * (the NMI watchdog: BUGS), so it is also read after a run: it went on
 * all or nothing (every member has the leader's time_enabled and
 * time_running), and when it ran every member counted.
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

	close(pa_hw_open_or_skip(a.type, a.config));	/* pins on hybrid x86 */
	fd[0] = ASSERT_OPEN(&a, 0, -1, -1, 0);
	a.disabled = 0;		/* members follow the leader */
	for (n = 1; n < MAX; n++) {
		fd[n] = pa_perf_open(&a, 0, -1, fd[0], 0);
		if (fd[n] < 0)
			break;
	}
	if (n == MAX) {
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
		pa_fail("%d cycles events opened in one group: more than any x86 or arm64 PMU has counters", MAX);
		pa_abort();
#else
		pa_skip("the PMU accepted %d cycles events in one group: it does not limit groups by counters", MAX);
#endif
	}
	pa_diag("%d cycles events fit in the group", n);
	EXPECT_OPEN_FAIL(&a, 0, -1, fd[0], 0, want);

	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	pa_work_cpu_ms(5);
	ASSERT_OK(ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(fd[0], lv, 3);
	EXPECT_GT(lv[1], 0);
	EXPECT_LE(lv[2], lv[1]);
	if (lv[2] == 0)
		pa_diag("the group never went on the PMU (a counter is taken, e.g. by the NMI watchdog): its values are not valid");
	else
		EXPECT_GT(lv[0], 0);
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
