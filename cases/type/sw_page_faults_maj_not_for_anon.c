#include "perfabi.h"

PERFABI_CASE(
	.assertion = "PERF_COUNT_SW_PAGE_FAULTS_MAJ counts only faults that needed "
		     "disk I/O: first touches of anonymous memory (zero-filled, "
		     "no I/O) add nothing",
	.ref = "perf_event_open(2), PERF_COUNT_SW_PAGE_FAULTS_MAJ \"These are "
	       "major page faults where disk I/O was required to handle them\"",
	.covers = "sw.PAGE_FAULTS_MAJ attr.config",
	.probe = pa_probe_self_perf,
) {
	struct perf_event_attr attr = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MAJ);
	struct perf_event_attr min = pa_sw_attr(PERF_COUNT_SW_PAGE_FAULTS_MIN);
	int fd = ASSERT_OPEN(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	int fdmin = ASSERT_OPEN(&min, 0, -1, fd, PERF_FLAG_FD_CLOEXEC);
	uint64_t maj, mn;

	/* a group: the minor counter proves the faults happened */
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	pa_touch_pages(256);
	ASSERT_OK(ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	pa_read_u64(fd, &maj, 1);
	pa_read_u64(fdmin, &mn, 1);
	EXPECT_GE(mn, 256);
	EXPECT_EQ(maj, 0);
}
