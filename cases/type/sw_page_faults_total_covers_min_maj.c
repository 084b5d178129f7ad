#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_PAGE_FAULTS counts every page fault: over the "
		     "same interval it is at least PAGE_FAULTS_MIN + PAGE_FAULTS_MAJ; 128 fresh "
		     "anonymous pages are exactly 128 faults, all minor",
	.ref = "perf_event_open(2), PERF_COUNT_SW_PAGE_FAULTS \"This reports the "
	       "number of page faults\"; mm/memory.c mm_account_fault()",
	.covers = "sw.PAGE_FAULTS sw.PAGE_FAULTS_MIN sw.PAGE_FAULTS_MAJ",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr all = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perf_event_attr min = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	struct perf_event_attr maj = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MAJ);
	int fd = ASSERT_OPEN(&all, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int fmin = ASSERT_OPEN(&min, 0, -1, fd, PERF_FLAG_FD_CLOEXEC);
	int fmaj = ASSERT_OPEN(&maj, 0, -1, fd, PERF_FLAG_FD_CLOEXEC);
	uint64_t a, mi, ma;

	/* the measured path once, uncounted, so its own faults are taken */
	pa_touch_pages(1);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	/* one group: the three count over exactly the same interval */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	pa_touch_pages(128);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	pa_read_u64(fd, &a, 1);
	pa_read_u64(fmin, &mi, 1);
	pa_read_u64(fmaj, &ma, 1);
	pa_diag("all %llu, min %llu, maj %llu", (unsigned long long)a,
		(unsigned long long)mi, (unsigned long long)ma);
	EXPECT_GE(a, mi + ma);
	EXPECT_EQ(a, 128);
	EXPECT_EQ(mi, 128);
	EXPECT_EQ(ma, 0);
}
