#include "perfabi.h"

#include <sys/ioctl.h>

/*
 * exclude_user and exclude_kernel on a hardware event are counter filters
 * the PMU applies itself: x86_pmu_hw_config() sets ARCH_PERFMON_EVENTSEL_USR
 * only without exclude_user and ARCH_PERFMON_EVENTSEL_OS only without
 * exclude_kernel; armv8pmu_set_event_filter() sets EXCLUDE_EL0 for
 * exclude_user, EXCLUDE_EL1 for exclude_kernel and, with exclude_hv (set
 * here) or a VHE kernel with exclude_kernel, no INCLUDE_EL2. So in one
 * group (the same intervals) over pa_loop3(10M), 30M user instructions:
 *
 *   U  exclude_kernel            the loop: [30M - 1 %, 30M + 5 % + 10000]
 *                                (hw/instructions' rule: the few user
 *                                instructions around the loop, the PMU's
 *                                known imprecision)
 *   N  exclude_user + _kernel    exactly 0: neither mode is counted
 *   K  exclude_user              > 0: the rest of the ENABLE ioctl runs in
 *                                the kernel with the group on; and
 *                                < 15M: with the loop it would be >= 30M
 *                                less 1 %, whatever the kernel adds
 *
 * K counts the kernel: it needs perf_event_paranoid < 2 or CAP_PERFMON
 * (pa_expected_errno(PA_NEED_KERNEL)); where refused, the open must fail
 * with that errno and U and N are checked alone. A group that did not have
 * the counters throughout SKIPs.
 */
#define K_LOOP 10000000ULL	/* pa_loop3() iterations */

static int open_member(int leader, bool exclude_user, bool exclude_kernel, int want)
{
	struct perf_event_attr a = pa_sw_attr(PERF_COUNT_HW_INSTRUCTIONS);

	a.type = PERF_TYPE_HARDWARE;
	a.disabled = 0;		/* follows the leader */
	a.exclude_user = exclude_user;
	a.exclude_kernel = exclude_kernel;
	a.read_format = PA_HW_GROUP_FMT;
	return EXPECT_OPEN_RESULT(&a, 0, -1, leader, PERF_FLAG_FD_CLOEXEC, want);
}

PERFABI_CASE(
	.assertion = "exclude_user and exclude_kernel filter a PERF_COUNT_HW_INSTRUCTIONS counter by mode: over a loop of 30M user "
		     "instructions, in one group, the exclude_kernel event counts 30M (- 1 %, + 5 % + 10000), the event with both bits "
		     "counts exactly 0, and the exclude_user event (where the kernel may be counted) counts more than 0 and less than 15M",
	.ref = "perf_event_open(2), exclude_user: \"If this bit is set, the count excludes events that happen in user space\"; "
	       "exclude_kernel: \"If this bit is set, the count excludes events that happen in kernel space\"; arch/x86/events/core.c "
	       "x86_pmu_hw_config() (ARCH_PERFMON_EVENTSEL_USR/OS); drivers/perf/arm_pmuv3.c armv8pmu_set_event_filter()",
	.covers = "attr.exclude_user attr.exclude_kernel type.HARDWARE hw.INSTRUCTIONS",
	.hw_pmu = true,
	.privileged = true,
	.probe = pa_probe_self_perf,
) {
	int want = pa_expected_errno(PA_NEED_KERNEL);
	int u, n, k;
	uint64_t v[3];

	pa_loop3(1);	/* SKIP here where there is no such loop */
	u = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, -1, PA_HW_GROUP_FMT);
	n = open_member(u, true, true, 0);
	k = open_member(u, true, false, want);
	if (n < 0)
		pa_abort();
	if (k < 0 && want)
		pa_diag("the exclude_user event is refused here (%s): U and N alone", pa_errno_name(want));
	else if (k < 0)
		pa_abort();

	ASSERT_OK(ioctl(u, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(K_LOOP);
	ASSERT_OK(ioctl(u, PERF_EVENT_IOC_DISABLE, 0));
	pa_hw_read_group(u, v, k < 0 ? 2 : 3, true);
	pa_diag("user only %llu, neither %llu, kernel only %s%llu", (unsigned long long)v[0], (unsigned long long)v[1],
		k < 0 ? "(not opened) " : "", k < 0 ? 0ULL : (unsigned long long)v[2]);

	EXPECT_GE(v[0], 3 * K_LOOP - 3 * K_LOOP / 100);
	EXPECT_LE(v[0], 3 * K_LOOP + 3 * K_LOOP / 20 + 10000);
	EXPECT_EQ(v[1], 0);
	if (k >= 0) {
		EXPECT_GT(v[2], 0);
		EXPECT_LT(v[2], 3 * K_LOOP / 2);
		close(k);
	}
	close(n);
	close(u);
}
