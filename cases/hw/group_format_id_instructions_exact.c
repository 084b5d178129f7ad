#include "perfabi.h"

#include <sys/ioctl.h>

#define K 1000000ULL	/* pa_loop3() iterations */
#define FMT (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	     PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID)

/*
 * read() of a group leader with PERF_FORMAT_GROUP | PERF_FORMAT_ID
 * (perf_read_group() -> __perf_read_group_add()) gives nr, the two times,
 * then { value, id } for the leader and each sibling in the order they
 * joined; each id is the one PERF_EVENT_IOC_ID gives for that fd
 * (primary_event_id()).
 *
 * Three user-space PERF_COUNT_HW_INSTRUCTIONS events in one group (three
 * general counters on arm64) are scheduled as a unit and, on arm64, all
 * start and stop with the PMU's global enable (armpmu_disable()/
 * armpmu_enable() around pmu->add and pmu->del): on a PMU that counts each
 * instruction (QEMU -icount shift=0) their three values are equal exactly,
 * and K more iterations of a 3-instruction loop add exactly 3K to each.
 * A group that did not have the counters throughout SKIPs.
 */
static void run(int lead, uint64_t k, uint64_t *v, uint64_t *id)
{
	uint64_t b[3 + 2 * 3];

	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	pa_loop3(k);
	ASSERT_OK(ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	pa_read_u64(lead, b, 3 + 2 * 3);
	ASSERT_EQ(b[0], 3);
	if (!b[2] || b[2] < b[1])
		pa_skip("the group had the counters %llu of the %llu ns it was enabled (another user holds them)",
			(unsigned long long)b[2], (unsigned long long)b[1]);
	for (int i = 0; i < 3; i++) {
		v[i] = b[3 + 2 * i];
		id[i] = b[4 + 2 * i];
	}
}

PERFABI_CASE(
	.assertion = "read() of a group of three user-space PERF_COUNT_HW_INSTRUCTIONS events with PERF_FORMAT_GROUP | "
		     "PERF_FORMAT_ID gives each member's value and its PERF_EVENT_IOC_ID id in join order; on a PMU that counts "
		     "every instruction the three values are equal exactly and K more loop iterations add exactly 3K to each",
	.ref = "perf_event_open(2), PERF_FORMAT_GROUP, PERF_FORMAT_ID, PERF_EVENT_IOC_ID; kernel/events/core.c "
	       "perf_read_group(), __perf_read_group_add(), group_sched_in(); drivers/perf/arm_pmu.c armpmu_add()",
	.covers = "hw.INSTRUCTIONS read_format.GROUP read_format.ID ioctl.ID",
	.hw_pmu = true,
	.probe = pa_probe_self_perf,
) {
	uint64_t a[3], b[3], ia[3], ib[3], want[3];
	int fd[3];

	pa_need_exact_pmu();
	pa_loop3(1);
	fd[0] = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, -1, FMT);
	fd[1] = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, fd[0], FMT);
	fd[2] = pa_hw_open_member(PERF_COUNT_HW_INSTRUCTIONS, fd[0], FMT);
	for (int i = 0; i < 3; i++)
		ASSERT_OK(ioctl(fd[i], PERF_EVENT_IOC_ID, &want[i]));
	run(fd[0], 1, a, ia);		/* the path once before */
	run(fd[0], K, a, ia);
	run(fd[0], 2 * K, b, ib);
	pa_diag("%llu %llu %llu over %llu iterations, %llu %llu %llu over %llu; ids %llu %llu %llu",
		(unsigned long long)a[0], (unsigned long long)a[1], (unsigned long long)a[2], (unsigned long long)K,
		(unsigned long long)b[0], (unsigned long long)b[1], (unsigned long long)b[2], (unsigned long long)(2 * K),
		(unsigned long long)ia[0], (unsigned long long)ia[1], (unsigned long long)ia[2]);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(ia[i], want[i]);
		EXPECT_EQ(ib[i], want[i]);
		EXPECT_EQ(a[i], a[0]);
		EXPECT_EQ(b[i], b[0]);
		EXPECT_EQ(b[i] - a[i], 3 * K);
	}
	EXPECT_NE(want[0], want[1]);
	EXPECT_NE(want[1], want[2]);
	EXPECT_NE(want[0], want[2]);
	for (int i = 2; i >= 0; i--)
		close(fd[i]);
}
